#include "archs/systolic/kind.h"

#include <algorithm>

#include "archs/systolic/cost_model.h"
#include "archs/systolic/energy.h"
#include "archs/systolic/mapping_decision.h"
#include "archs/systolic/module.h"

namespace polyarch::archs::systolic {

bool SystolicKind::supports(const ir::Op& op) {
  ir::OpKind kind = op.kind();
  return kind == ir::OpKind::kGemm || kind == ir::OpKind::kConv2d;
}

sim::UnitFactory SystolicKind::factory(const KindUnit<SystolicKind>& unit, double soc_clock_ghz) {
  return systolic_unit_factory(unit.params, soc_clock_ghz, {}, unit.search);
}

double SystolicKind::estimate_seconds(const KindUnit<SystolicKind>& unit, const ir::Op& op,
                                      const OpSurroundings& at) {
  if (unit.search) {
    const SystolicRun run = systolic_run(unit.params, op, at.clock_ghz, at.view, unit.search.get());
    if (!run.search.is_null()) return run.estimate_s;
  }
  const double bytes_per_cycle = at.memory.dram_bytes_per_second / (at.clock_ghz * 1e9);
  const SystolicPlan plan = plan_op(unit.params, op, bytes_per_cycle);
  const double compute_s = static_cast<double>(plan.compute_cycles) / (at.clock_ghz * 1e9);
  const double bytes = static_cast<double>(plan.dram_read_bytes + plan.dram_write_bytes);
  const double dram_s =
      at.memory.dram_bytes_per_second > 0 ? bytes / at.memory.dram_bytes_per_second : 0.0;
  // Double-buffered folds overlap loads with compute; the first load's latency stays exposed.
  return std::max(compute_s, dram_s) + at.memory.dram_latency_s;
}

std::optional<KindMappingQuery<SystolicMappingProblem>> SystolicKind::mapping_query(
    const KindUnit<SystolicKind>& unit, const ir::Op& op, const OpSurroundings& at) {
  return systolic_mapping_query(unit.params, op, at.clock_ghz, at.view, at.energy);
}

}  // namespace polyarch::archs::systolic
