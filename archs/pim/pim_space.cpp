#include "archs/pim/pim_space.h"

#include "archs/pim/energy.h"
#include "mapping/cache/op_shape_key.h"

namespace polyarch::archs::pim {

PimGemmMappingProblem::PimGemmMappingProblem(PimParams params, ir::Op op, MappingEnergy energy)
    : params_(std::move(params)),
      op_(std::move(op)),
      energy_(std::move(energy)),
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
  cost.energy_j =
      energy_.planned_joules(pim_op_energy, params_,
                             planned_op_result(chosen.macs, chosen.external_read_bytes,
                                               chosen.external_write_bytes, cost.latency_s),
                             pim_activity(chosen));
  return cost;
}

std::optional<KindMappingQuery<PimGemmMappingProblem>> pim_mapping_query(
    const PimParams& params, const ir::Op& op, const MappingEnergy& energy) {
  if (op.kind() != ir::OpKind::kGemm) return std::nullopt;
  return KindMappingQuery<PimGemmMappingProblem>{
      std::make_shared<const PimGemmMappingProblem>(params, op, energy),
      mapping::op_shape_key(op, params.dtype)};
}

PimPlan plan_for_run(const PimParams& params, const ir::Op& op, UnitSearch* search) {
  return searched_plan(
      search, [&](const MappingEnergy& energy) { return pim_mapping_query(params, op, energy); },
      [&] { return plan_op(params, op); });
}

}  // namespace polyarch::archs::pim
