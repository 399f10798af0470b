#pragma once
// Heterogeneous partitioning and scheduling (HEFT, Topcuoglu et al., IEEE TPDS 2002): every op
// goes to the unit where it finishes earliest, ops taken in order of upward rank (their mean
// cost over capable units plus the longest path to the graph's end), so the critical path is
// placed first and independent ops overlap on different units. Costs come from each unit's
// analytical model; a dependency between ops on different units costs `transfer_s` on top
// (every result already goes through DRAM in the unit models, so only the hand-over latency).
#include <vector>

#include "mapping/program/program.h"

namespace polyarch::mapping {

struct ScheduledOp {
  int unit_index = 0;
  double start_s = 0;
  double finish_s = 0;
};

struct Schedule {
  Program program;  // each unit's ops ordered by start
  std::vector<ScheduledOp> ops;  // by program op index
  double makespan_s = 0;
};

// HEFT when every unit that supports an op gives an estimate for it; nullopt otherwise (the
// caller falls back to partition_graph). Ties go to the earlier unit and op: deterministic.
std::optional<Schedule> schedule_heft(const ir::Graph& graph,
                                      const std::vector<UnitCapability>& units, double transfer_s);

}  // namespace polyarch::mapping
