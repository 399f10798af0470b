#pragma once
// The systolic kind's mapping space (mapper.h) as `compile --explain` and `run --search` use it:
// the op's search problem with its decision key, and what the unit runs for an op under the
// searched mapping (the array configured by it, and the op cut into its temporal tiles).
#include <optional>
#include <vector>

#include "archs/systolic/mapper.h"
#include "archs/unit_search.h"
#include "sim/memory/memory_view.h"

namespace polyarch::archs::systolic {

// The op's mapping space on `unit`, whose clock is `clock_ghz` and whose DRAM is `memory`.
std::optional<KindMappingQuery<SystolicMappingProblem>> systolic_mapping_query(
    const SystolicParams& unit, const ir::Op& op, double clock_ghz, const sim::MemoryView& memory,
    const MappingEnergy& energy);

// What the unit runs for one op: the unit's parameters as the mapping configures them
// (dataflow, buffer partition, double buffering) and the ops it executes in order (the op
// itself, or its temporal tiles), with the decision's record for mapping.search (null without
// a searched decision: the unit's own configuration and the whole op).
struct SystolicRun {
  SystolicParams params;
  std::vector<ir::Op> ops;
  nlohmann::ordered_json search;
  double estimate_s = 0;  // the decision's analytical latency (0 without one)
};

SystolicRun systolic_run(const SystolicParams& unit, const ir::Op& op, double clock_ghz,
                         const sim::MemoryView& memory, UnitSearch* search);

}  // namespace polyarch::archs::systolic
