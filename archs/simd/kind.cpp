#include "archs/simd/kind.h"

#include "archs/simd/cost_model.h"
#include "archs/simd/energy.h"
#include "archs/simd/gemm_space.h"
#include "archs/simd/module.h"

namespace polyarch::archs::simd {

sim::UnitFactory SimdKind::factory(const KindUnit<SimdKind>& unit, double soc_clock_ghz) {
  return simd_unit_factory(unit.params, soc_clock_ghz, {}, unit.search);
}

double SimdKind::estimate_seconds(const KindUnit<SimdKind>& unit, const ir::Op& op,
                                  const OpSurroundings& at) {
  const KernelPlan plan = plan_op(unit.params, op, at.view, at.clock_ghz, unit.search.get());
  return static_cast<double>(
             estimate_cycles(plan, at.view.dram_bytes_per_cycle, at.view.dram_latency_cycles)) /
         (at.clock_ghz * 1e9);
}

std::optional<KindMappingQuery<SimdMappingProblem>> SimdKind::mapping_query(
    const KindUnit<SimdKind>& unit, const ir::Op& op, const OpSurroundings& at) {
  if (auto attention = simd_attention_query(unit.params, op, at.view, at.clock_ghz, at.energy)) {
    return KindMappingQuery<SimdMappingProblem>{attention->problem, attention->op_shape};
  }
  if (auto gemm = simd_mapping_query(unit.params, op, at.view, at.clock_ghz, at.energy)) {
    return KindMappingQuery<SimdMappingProblem>{gemm->problem, gemm->op_shape};
  }
  return std::nullopt;
}

}  // namespace polyarch::archs::simd
