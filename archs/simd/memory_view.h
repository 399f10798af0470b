#pragma once
// What a simd mapper needs to know of the memory behind the unit: DRAM bandwidth and latency
// in the unit's clock. The SystemC model takes them from the shared DRAM channel; tests and
// `compile` give them directly.
#include <cstdint>

namespace polyarch::archs::simd {

struct MemoryView {
  double dram_bytes_per_cycle = 0;  // <= 0: unlimited
  int64_t dram_latency_cycles = 0;
};

}  // namespace polyarch::archs::simd
