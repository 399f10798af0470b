#pragma once
// DRAM as a unit's mappers and analytical estimates see it, in the unit's own clock: sustained
// bandwidth and first-access latency. The per-clock form of a DramView (dram_view.h); inside a
// simulation a module takes it from the shared channel (unit_dram.h). SystemC-free, so that
// models may include it.
#include <cstdint>

namespace polyarch::sim {

struct MemoryView {
  double dram_bytes_per_cycle = 0;  // <= 0: unlimited
  int64_t dram_latency_cycles = 0;
};

// `bytes_per_second` <= 0 means unlimited.
MemoryView memory_view(double bytes_per_second, double latency_s, double clock_ghz);

}  // namespace polyarch::sim
