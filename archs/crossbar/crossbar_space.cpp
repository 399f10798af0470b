#include "archs/crossbar/crossbar_space.h"

#include <cstdio>

#include "archs/crossbar/energy.h"
#include "archs/crossbar/estimate.h"
#include "mapping/cache/op_shape_key.h"

namespace polyarch::archs::crossbar {

namespace {

mapping::MappingSpace replica_space(int64_t most) {
  mapping::Dimension replicas{"replicas", {}, {}};
  for (int64_t count = most; count >= 1; --count) replicas.values.push_back(count);
  return mapping::MappingSpace({std::move(replicas)});
}

}  // namespace

double crossbar_seconds(const CrossbarParams& params, const CrossbarPlan& plan,
                        const sim::DramView& memory) {
  return estimate_op(params, plan, memory).seconds;
}

CrossbarMappingProblem::CrossbarMappingProblem(CrossbarParams params, ir::Op op,
                                               sim::DramView memory, MappingEnergy energy,
                                               ArrayBudget budget)
    : params_(std::move(params)),
      op_(std::move(op)),
      memory_(memory),
      energy_(std::move(energy)),
      budget_(budget),
      space_(replica_space(max_replicas(params_, op_, budget_))) {}

int64_t CrossbarMappingProblem::replicas(const mapping::MappingPoint& point) const {
  return space_.value(point, 0);
}

CrossbarPlan CrossbarMappingProblem::plan(const mapping::MappingPoint& point) const {
  return plan_op(params_, op_, replicas(point), budget_);
}

bool CrossbarMappingProblem::valid(const mapping::MappingPoint& point) const {
  return point.size() == 1 && point[0] < space_.dimensions()[0].values.size();
}

mapping::MappingCost CrossbarMappingProblem::evaluate(const mapping::MappingPoint& point) const {
  const CrossbarPlan chosen = plan(point);
  mapping::MappingCost cost;
  const CrossbarEstimate estimate = estimate_op(params_, chosen, memory_);
  cost.latency_s = estimate.seconds;
  cost.bound = estimate.bound;
  cost.energy_j = energy_.planned_joules(crossbar_op_energy, params_,
                                         planned_op_result(chosen.macs, chosen.dram_read_bytes,
                                                           chosen.dram_write_bytes, cost.latency_s),
                                         chosen.activity);
  return cost;
}

std::optional<KindMappingQuery<CrossbarMappingProblem>> crossbar_mapping_query(
    const CrossbarParams& params, const ir::Op& op, const sim::DramView& memory,
    const MappingEnergy& energy, ArrayBudget budget) {
  if (!crossbar_supports(op)) return std::nullopt;
  char channel[64];
  std::snprintf(channel, sizeof channel, " bw=%g lat=%g", memory.dram_bytes_per_second,
                memory.dram_latency_s);
  // Ops of one shape with different budgets are different problems.
  std::string key = mapping::op_shape_key(op, crossbar_run_dtype(op)) + channel;
  if (budget.arrays > 0 || !budget.resident) {
    key += " arrays=" + std::to_string(budget.arrays) + (budget.resident ? "" : " written");
  }
  return KindMappingQuery<CrossbarMappingProblem>{
      std::make_shared<const CrossbarMappingProblem>(params, op, memory, energy, budget),
      std::move(key)};
}

CrossbarPlan plan_for_run(const CrossbarParams& params, const ir::Op& op,
                          const sim::DramView& memory, UnitSearch* search,
                          ArrayBudget budget) {
  return searched_plan(
      search,
      [&](const MappingEnergy& energy) {
        return crossbar_mapping_query(params, op, memory, energy, budget);
      },
      [&] { return plan_op(params, op, std::nullopt, budget); });
}

}  // namespace polyarch::archs::crossbar
