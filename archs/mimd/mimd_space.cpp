#include "archs/mimd/mimd_space.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mapping/cache/op_shape_key.h"

namespace polyarch::archs::mimd {

namespace {

mapping::MappingSpace grid_space(const std::vector<GemmGrid>& grids) {
  mapping::Dimension grid{"grid", {}, {}};
  for (const GemmGrid& candidate : grids) {
    grid.values.push_back(candidate.rows);
    grid.labels.push_back(std::to_string(candidate.rows) + "x" + std::to_string(candidate.cols));
  }
  return mapping::MappingSpace({std::move(grid)});
}

}  // namespace

MimdGemmMappingProblem::MimdGemmMappingProblem(MimdParams params, ir::Op op, MimdMemoryView memory,
                                               double clock_ghz)
    : params_(std::move(params)),
      op_(std::move(op)),
      memory_(memory),
      clock_ghz_(clock_ghz),
      grids_(gemm_grid_candidates(params_, op_)),
      space_(grid_space(grids_)) {}

GemmGrid MimdGemmMappingProblem::grid(const mapping::MappingPoint& point) const {
  return grids_.at(point.at(0));
}

MimdPlan MimdGemmMappingProblem::plan(const mapping::MappingPoint& point) const {
  return plan_op(params_, op_, memory_, clock_ghz_, grid(point));
}

bool MimdGemmMappingProblem::valid(const mapping::MappingPoint& point) const {
  return point.size() == 1 && point[0] < grids_.size();
}

mapping::MappingCost MimdGemmMappingProblem::evaluate(const mapping::MappingPoint& point) const {
  const MimdPlan chosen = plan(point);
  const int64_t cycles = estimate_cycles(params_, chosen, memory_);
  mapping::MappingCost cost;
  cost.latency_s = static_cast<double>(cycles) / (clock_ghz_ * 1e9);
  // What paces the steps: one core's compute, all cores' bytes through DRAM, or the bytes of
  // the cores behind one memory port over its link.
  const double bytes = static_cast<double>(chosen.dram_read_bytes + chosen.dram_write_bytes);
  const double cores = static_cast<double>(chosen.active_cores);
  const double dram_cycles =
      memory_.dram_bytes_per_cycle > 0 ? bytes / memory_.dram_bytes_per_cycle : 0.0;
  const double cores_per_port =
      std::ceil(cores / static_cast<double>(std::min(params_.memory_ports, chosen.active_cores)));
  const double noc_cycles =
      bytes / cores * cores_per_port / static_cast<double>(params_.noc.link_bytes_per_cycle);
  const double compute_cycles = static_cast<double>(chosen.compute_cycles);
  cost.bound = compute_cycles >= std::max(dram_cycles, noc_cycles) ? mapping::Bound::kCompute
               : dram_cycles >= noc_cycles                         ? mapping::Bound::kDram
                                                                   : mapping::Bound::kNoc;
  return cost;
}

std::vector<double> MimdGemmMappingProblem::features(const mapping::MappingPoint& point) const {
  const GemmGrid chosen = grid(point);
  return {static_cast<double>(chosen.rows), static_cast<double>(chosen.cols),
          std::log2(static_cast<double>(chosen.rows) / static_cast<double>(chosen.cols))};
}

MimdPlan plan_for_run(const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory,
                      double clock_ghz, mapping::UnitDecisions* decisions) {
  if (decisions == nullptr || gemm_grid_candidates(params, op).empty()) {
    return plan_op(params, op, memory, clock_ghz);
  }
  const MimdGemmMappingProblem problem(params, op, memory, clock_ghz);
  char channel[64];
  std::snprintf(channel, sizeof channel, " clock=%g bw=%g lat=%lld", clock_ghz,
                memory.dram_bytes_per_cycle, static_cast<long long>(memory.dram_latency_cycles));
  const std::optional<mapping::Decision> decision = decisions->decide(
      problem, mapping::op_shape_key(op, op.dtype.value_or(params.dtype)) + channel);
  if (!decision) return plan_op(params, op, memory, clock_ghz);
  MimdPlan plan = problem.plan(decision->point);
  plan.mapping["search"] = mapping::decision_json(decisions->policy(), *decision);
  return plan;
}

}  // namespace polyarch::archs::mimd
