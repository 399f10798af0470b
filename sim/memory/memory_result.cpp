#include "sim/memory/memory_result.h"

#include <cmath>

#include "sim/memory/jedec_backend.h"

namespace polyarch::sim {

int64_t dram_capacity_bytes(const DramSpec& dram) {
  if (dram.jedec_config) return dram.jedec_config->capacity_bytes();
  return static_cast<int64_t>(std::floor(dram.capacity_gib * 1024.0 * 1024.0 * 1024.0));
}

void require_fits(const DramSpec& dram, const TensorAllocation& allocation,
                  const std::string& workload_name) {
  require_capacity(allocation, workload_name, dram_capacity_bytes(dram), dram.capacity_where);
}

MemoryResult memory_result(const DramSpec& spec, const TensorAllocation& allocation,
                           const DramChannel& dram) {
  MemoryResult memory;
  memory.model = spec.model;
  memory.capacity_bytes = dram_capacity_bytes(spec);
  memory.footprint_bytes = allocation.footprint_bytes();
  memory.notes = spec.notes;
  for (const TensorPlacement& tensor : allocation.tensors()) {
    memory.tensors.push_back({tensor.name, tensor.role, tensor.base_address, tensor.bytes});
  }
  const JedecBackend* jedec = dram.jedec();
  if (jedec == nullptr) return memory;
  JedecMemoryCounters counters;
  if (spec.check_commands) {
    if (const auto violation = jedec->check()) {
      throw_runtime({}, "the DRAM controllers broke " + violation->rule + ": " +
                            violation->message + " (" + dram::describe(violation->command) + ")");
    }
    counters.commands_checked = jedec->commands_recorded();
  }
  const dram::DramStats stats = jedec->stats();
  counters.read_bursts = stats.read_bursts;
  counters.write_bursts = stats.write_bursts;
  counters.row_hits = stats.row_hits;
  counters.row_misses = stats.row_misses;
  counters.row_conflicts = stats.row_conflicts;
  counters.refreshes = stats.refreshes;
  counters.activates = stats.command_count(dram::CommandKind::kActivate);
  const dram::PimCounters pim = jedec->pim_counters();
  counters.pim_column_commands = pim.column_commands;
  counters.pim_internal_bytes = pim.internal_bytes;
  counters.pim_mode_entries = pim.mode_entries;
  counters.pim_mode_exits = pim.mode_exits;
  memory.jedec = counters;
  return memory;
}

}  // namespace polyarch::sim
