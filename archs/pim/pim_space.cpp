#include "archs/pim/pim_space.h"

#include "mapping/cache/op_shape_key.h"

namespace polyarch::archs::pim {

PimGemmMappingProblem::PimGemmMappingProblem(PimParams params, ir::Op op)
    : params_(std::move(params)),
      op_(std::move(op)),
      space_({{"partition", {0, 1}, {"rows", "columns"}}}) {}

Partition PimGemmMappingProblem::partition(const mapping::MappingPoint& point) const {
  return space_.value(point, 0) == 0 ? Partition::kRows : Partition::kColumns;
}

PimPlan PimGemmMappingProblem::plan(const mapping::MappingPoint& point) const {
  return plan_op(params_, op_, partition(point));
}

bool PimGemmMappingProblem::valid(const mapping::MappingPoint& point) const {
  return point.size() == 1 && point[0] < 2;
}

mapping::MappingCost PimGemmMappingProblem::evaluate(const mapping::MappingPoint& point) const {
  const PimPlan chosen = plan(point);
  mapping::MappingCost cost;
  cost.latency_s = static_cast<double>(chosen.dram_cycles) /
                   (static_cast<double>(params_.dram.organization.clock_mhz) * 1e6);
  // "io" (the external bus) is DRAM traffic too, seen from outside the device.
  cost.bound = chosen.bound == "compute" ? mapping::Bound::kCompute : mapping::Bound::kDram;
  return cost;
}

PimPlan plan_for_run(const PimParams& params, const ir::Op& op, mapping::UnitDecisions* decisions) {
  if (decisions == nullptr || op.kind() != ir::OpKind::kGemm) return plan_op(params, op);
  const PimGemmMappingProblem problem(params, op);
  const std::optional<mapping::Decision> decision =
      decisions->decide(problem, mapping::op_shape_key(op, op.dtype.value_or(params.dtype)));
  if (!decision) return plan_op(params, op);
  PimPlan plan = problem.plan(decision->point);
  plan.mapping["search"] = mapping::decision_json(decisions->policy(), *decision);
  return plan;
}

}  // namespace polyarch::archs::pim
