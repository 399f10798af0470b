#pragma once
// The shared DRAM channel as a unit's SystemC module gets it: the channel itself from the
// kernel's shared resources, and what the channel's timing looks like to the unit's mappers.
// For modules only (it reaches SystemC through the channel); models take a DramView or a
// MemoryView (dram_view.h, memory_view.h).
#include <string>

#include "sim/kernel/unit_model.h"
#include "sim/memory/dram_channel.h"
#include "sim/memory/memory_view.h"

namespace polyarch::sim {

// The channel's sustained bandwidth (timed over a 1 GiB probe) and latency, in `clock_ghz`
// cycles.
MemoryView memory_view(const DramChannel& dram, double clock_ghz);

// The shared DRAM channel a unit model needs; a runtime error naming the unit when absent.
DramChannel& require_dram(SharedResources& resources, const std::string& unit_description);

}  // namespace polyarch::sim
