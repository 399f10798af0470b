#pragma once
// report.json's "memory" object: the DRAM backend, the capacity and footprint, every tensor's
// address, and the jedec backend's counters.
#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace polyarch::reports {

nlohmann::ordered_json memory_json(const sim::MemoryResult& memory);

}  // namespace polyarch::reports
