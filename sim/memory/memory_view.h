#pragma once
// DRAM as a unit's mappers and analytical estimates see it, in the unit's own clock: sustained
// bandwidth and first-access latency. Built from the shared channel inside a simulation, or from
// the SoC's DRAM figures for estimates made without one.
#include <cstdint>
#include <string>

#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_channel.h"

namespace polyarch::sim {

struct MemoryView {
  double dram_bytes_per_cycle = 0;  // <= 0: unlimited
  int64_t dram_latency_cycles = 0;
};

MemoryView memory_view(const DramChannel& dram, double clock_ghz);
// `bytes_per_second` <= 0 means unlimited.
MemoryView memory_view(double bytes_per_second, double latency_s, double clock_ghz);

// The shared DRAM channel a unit model needs; a runtime error naming the unit when absent.
DramChannel& require_dram(SharedResources& resources, const std::string& unit_description);

}  // namespace polyarch::sim
