#include "archs/mimd/mimd_space.h"

#include <algorithm>
#include <cmath>

#include "archs/mimd/energy.h"
#include "archs/mimd/op_bound.h"
#include "mapping/cache/op_shape_key.h"
#include "sim/noc/noc.h"

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

// Prefix sums of each core's hops to its nearest memory port, as the SystemC model routes them.
std::vector<int64_t> port_hops_before(const MimdParams& params) {
  const sim::Noc noc(params.noc);
  std::vector<int64_t> before(static_cast<std::size_t>(params.count) + 1, 0);
  for (int64_t core = 0; core < params.count; ++core) {
    int64_t hops = noc.hops(params.port_node(0), core);
    for (int64_t port = 1; port < params.memory_ports; ++port) {
      hops = std::min(hops, noc.hops(params.port_node(port), core));
    }
    before[static_cast<std::size_t>(core) + 1] = before[static_cast<std::size_t>(core)] + hops;
  }
  return before;
}

}  // namespace

MimdGemmMappingProblem::MimdGemmMappingProblem(MimdParams params, ir::Op op, MimdMemoryView memory,
                                               double clock_ghz, MappingEnergy energy)
    : params_(std::move(params)),
      op_(std::move(op)),
      memory_(memory),
      clock_ghz_(clock_ghz),
      energy_(std::move(energy)),
      grids_(gemm_grid_candidates(params_, op_)),
      space_(grid_space(grids_)),
      port_hops_before_(port_hops_before(params_)) {}

double MimdGemmMappingProblem::noc_link_bytes(const MimdPlan& plan) const {
  const int64_t cores = std::clamp<int64_t>(plan.active_cores, 1, params_.count);
  const double bytes = static_cast<double>(plan.dram_read_bytes + plan.dram_write_bytes);
  return bytes / static_cast<double>(cores) *
         static_cast<double>(port_hops_before_[static_cast<std::size_t>(cores)]);
}

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
  // What paces the steps: one core's compute, all cores' bytes through DRAM, the bytes of
  // the cores behind one memory port over its link, or one core's misses in flight.
  const double bytes = static_cast<double>(chosen.dram_read_bytes + chosen.dram_write_bytes);
  const double cores = static_cast<double>(chosen.active_cores);
  const double dram_cycles =
      memory_.dram_bytes_per_cycle > 0 ? bytes / memory_.dram_bytes_per_cycle : 0.0;
  const double cores_per_port =
      std::ceil(cores / static_cast<double>(std::min(params_.memory_ports, chosen.active_cores)));
  const double noc_cycles =
      bytes / cores * cores_per_port / static_cast<double>(params_.noc.link_bytes_per_cycle);
  const double compute_cycles = static_cast<double>(chosen.compute_cycles);
  cost.bound = mimd_bound(compute_cycles, dram_cycles, noc_cycles, chosen.miss_window_cycles());
  cost.energy_j = energy_.planned_joules(mimd_op_energy, params_,
                                         planned_op_result(chosen.macs, chosen.dram_read_bytes,
                                                           chosen.dram_write_bytes, cost.latency_s),
                                         MimdActivity{chosen.flops, noc_link_bytes(chosen)});
  return cost;
}

std::vector<double> MimdGemmMappingProblem::features(const mapping::MappingPoint& point) const {
  const GemmGrid chosen = grid(point);
  return {static_cast<double>(chosen.rows), static_cast<double>(chosen.cols),
          std::log2(static_cast<double>(chosen.rows) / static_cast<double>(chosen.cols))};
}

std::optional<KindMappingQuery<MimdGemmMappingProblem>> mimd_mapping_query(
    const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory, double clock_ghz,
    const MappingEnergy& energy) {
  if (gemm_grid_candidates(params, op).empty()) return std::nullopt;
  return KindMappingQuery<MimdGemmMappingProblem>{
      std::make_shared<const MimdGemmMappingProblem>(params, op, memory, clock_ghz, energy),
      mapping::op_shape_key(op, params.run_dtype(op)) + channel_key(clock_ghz, memory)};
}

MimdPlan plan_for_run(const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory,
                      double clock_ghz, UnitSearch* search) {
  return searched_plan(
      search,
      [&](const MappingEnergy& energy) {
        return mimd_mapping_query(params, op, memory, clock_ghz, energy);
      },
      [&] { return plan_op(params, op, memory, clock_ghz); });
}

}  // namespace polyarch::archs::mimd
