#pragma once
// The DRAM side of a run: its capacity as the arch file describes it, the capacity check of a
// workload's tensor placement, and the MemoryResult a run reports.
#include <cstdint>
#include <string>

#include "sim/memory/dram_channel.h"
#include "sim/memory/dram_spec.h"
#include "sim/memory/tensor_allocator.h"
#include "sim/result.h"

namespace polyarch::sim {

// jedec: the organisation's capacity; simple: capacity_gib.
int64_t dram_capacity_bytes(const DramSpec& dram);

// A bad-input error when the workload's tensors, all live at once, do not fit the DRAM: the
// jedec organisation's capacity (beyond it their addresses would alias) or the simple queue's
// capacity_gib, the same rule for both.
void require_fits(const DramSpec& dram, const TensorAllocation& allocation,
                  const std::string& workload_name);

// After a run: the placement and, for jedec, the controllers' counters. With
// DramSpec::check_commands, replays the command streams through the JEDEC checker first and
// throws an internal error naming the first violation.
MemoryResult memory_result(const DramSpec& spec, const TensorAllocation& allocation,
                           const DramChannel& dram);

}  // namespace polyarch::sim
