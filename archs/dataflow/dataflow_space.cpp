#include "archs/dataflow/dataflow_space.h"

#include <algorithm>

#include "archs/dataflow/energy.h"
#include "archs/dataflow/phase_plans.h"
#include "mapping/cache/op_shape_key.h"

namespace polyarch::archs::dataflow {

namespace {

enum Dim : std::size_t { kKUnroll, kNUnroll, kReplication, kRows, kOrientation, kForm };


std::vector<int64_t> powers_of_two() {
  std::vector<int64_t> values;
  for (int64_t value = 1; value <= kMaxUnroll; value *= 2) values.push_back(value);
  return values;
}

bool is_gemm_like(const ir::Op& op) {
  return op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d;
}

// What the energy model prices a planned op with: each phase's configuration loaded once.
DataflowActivity planned_activity(const DataflowPlan& plan, ir::DType dtype) {
  int64_t config_bytes = 0;
  for (const LoopPhase& phase : plan.phases) config_bytes += phase.config_bytes;
  return {dtype, plan_activity(plan), config_bytes};
}

}  // namespace

PhaseActivity plan_activity(const DataflowPlan& plan) {
  PhaseActivity activity;
  for (const LoopPhase& phase : plan.phases) {
    activity.macs += phase.activity.macs;
    activity.alu_ops += phase.activity.alu_ops;
    activity.mul_ops += phase.activity.mul_ops;
    activity.special_ops += phase.activity.special_ops;
    activity.scratchpad_bytes += phase.activity.scratchpad_bytes;
    activity.network_bit_hops += phase.activity.network_bit_hops;
  }
  return activity;
}

DataflowGemmMappingProblem::DataflowGemmMappingProblem(DataflowParams params, ir::Op op,
                                                       std::shared_ptr<MappingCache> cache,
                                                       sim::MemoryView memory, double clock_ghz,
                                                       MappingEnergy energy)
    : params_(std::move(params)),
      op_(std::move(op)),
      cache_(std::move(cache)),
      memory_(memory),
      clock_ghz_(clock_ghz),
      energy_(std::move(energy)),
      choices_(gemm_choices(params_, gemm_shape(op_, params_.run_dtype(op_)))),
      space_({{"k_unroll", powers_of_two(), {}},
              {"n_unroll", powers_of_two(), {}},
              {"replication", {0, 1}, {"full", "half"}},
              {"rows", {0, 1}, {"whole", "blocked"}},
              {"orientation", {0, 1}, {"ab", "ba"}},
              {"form", {0, 1}, {"tile", "dot"}}}) {}

GemmChoice DataflowGemmMappingProblem::choice(const mapping::MappingPoint& point) const {
  return {space_.value(point, kKUnroll),          space_.value(point, kNUnroll),
          space_.value(point, kReplication) == 1, space_.value(point, kRows) == 1,
          space_.value(point, kOrientation) == 1, space_.value(point, kForm) == 1};
}

mapping::MappingPoint DataflowGemmMappingProblem::point_of(const GemmChoice& chosen) const {
  auto index = [](int64_t unroll) {
    uint32_t position = 0;
    while ((int64_t{1} << position) < unroll) ++position;
    return position;
  };
  return {index(chosen.k_unroll),        index(chosen.n_unroll),
          chosen.half_replicas ? 1u : 0u, chosen.row_blocks ? 1u : 0u,
          chosen.swapped ? 1u : 0u,       chosen.dot ? 1u : 0u};
}

bool DataflowGemmMappingProblem::valid(const mapping::MappingPoint& point) const {
  return std::find(choices_.begin(), choices_.end(), choice(point)) != choices_.end();
}

DataflowPlan DataflowGemmMappingProblem::plan(const mapping::MappingPoint& point) const {
  return plan_op(params_, op_, *cache_, choice(point));
}

mapping::MappingCost DataflowGemmMappingProblem::evaluate(
    const mapping::MappingPoint& point) const {
  const DataflowPlan chosen = plan(point);
  const int64_t cycles =
      estimate_cycles(chosen, memory_.dram_bytes_per_cycle, memory_.dram_latency_cycles);
  mapping::MappingCost cost;
  cost.latency_s = static_cast<double>(cycles) / (clock_ghz_ * 1e9);
  // DRAM-bound when the fabric alone (DRAM unlimited) would take under 95% of the estimate.
  const int64_t fabric_cycles = estimate_cycles(chosen, 0, 0);
  const bool fabric_bound =
      static_cast<double>(fabric_cycles) >= 0.95 * static_cast<double>(cycles);
  cost.bound = !fabric_bound           ? mapping::Bound::kDram
               : routing_bound(chosen) ? mapping::Bound::kNoc
                                       : mapping::Bound::kCompute;
  cost.energy_j =
      energy_.planned_joules(dataflow_op_energy, params_,
                             planned_op_result(chosen.macs, chosen.dram_read_bytes,
                                               chosen.dram_write_bytes, cost.latency_s),
                             planned_activity(chosen, params_.run_dtype(op_)));
  return cost;
}

std::optional<KindMappingQuery<DataflowGemmMappingProblem>> dataflow_mapping_query(
    const DataflowParams& params, const ir::Op& op, const std::shared_ptr<MappingCache>& cache,
    const sim::MemoryView& memory, double clock_ghz, const MappingEnergy& energy) {
  if (!is_gemm_like(op)) return std::nullopt;
  return KindMappingQuery<DataflowGemmMappingProblem>{
      std::make_shared<const DataflowGemmMappingProblem>(params, op, cache, memory, clock_ghz,
                                                         energy),
      mapping::op_shape_key(op, params.run_dtype(op)) + channel_key(clock_ghz, memory)};
}

DataflowPlan plan_for_run(const DataflowParams& params, const ir::Op& op,
                          const std::shared_ptr<MappingCache>& cache, const sim::MemoryView& memory,
                          double clock_ghz, UnitSearch* search) {
  return searched_plan(
      search,
      [&](const MappingEnergy& energy) {
        return dataflow_mapping_query(params, op, cache, memory, clock_ghz, energy);
      },
      [&] { return plan_op(params, op, *cache, std::nullopt, memory); });
}

}  // namespace polyarch::archs::dataflow
