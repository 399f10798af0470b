#pragma once
// What a simd mapper needs to know of the memory behind the unit (sim/memory/memory_view.h).
#include "sim/memory/memory_view.h"

namespace polyarch::archs::simd {

using MemoryView = sim::MemoryView;

}  // namespace polyarch::archs::simd
