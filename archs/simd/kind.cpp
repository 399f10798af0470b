#include "archs/simd/kind.h"

#include "archs/simd/cost_model.h"
#include "archs/simd/energy.h"
#include "archs/simd/gemm_space.h"
#include "archs/simd/module.h"

namespace polyarch::archs::simd {

sim::UnitFactory SimdKind::factory(const KindUnit<SimdKind>& unit, double soc_clock_ghz) {
  return simd_unit_factory(unit.params, soc_clock_ghz, {}, unit.search);
}

nlohmann::ordered_json SimdKind::describe(const Params& params) {
  nlohmann::ordered_json engine_rates = nlohmann::ordered_json::object();
  for (const auto& [dtype, macs] : params.matrix_engine.macs_per_cycle) {
    engine_rates[std::string(ir::dtype_name(dtype))] = macs;
  }
  return {
      {"name", params.name},
      {"kind", "simd"},
      {"count", params.count},
      {"clock_ghz", params.clock_ghz ? nlohmann::ordered_json(*params.clock_ghz)
                                     : nlohmann::ordered_json(nullptr)},
      {"dtype", ir::dtype_name(params.dtype)},
      {"vector",
       {{"lanes", params.vector.lanes},
        {"sfu_lanes", params.vector.sfu_lanes},
        {"registers_kib", params.vector.registers_kib},
        {"packed_narrow_types", params.vector.packed_narrow_types}}},
      {"matrix_engine",
       {{"per_core", params.matrix_engine.per_core},
        {"min_tile_m", params.matrix_engine.min_tile_m},
        {"macs_per_cycle", engine_rates}}},
      {"scratchpad",
       {{"kib", params.scratchpad.kib}, {"bytes_per_cycle", params.scratchpad.bytes_per_cycle}}},
      {"l2",
       {{"capacity_mib", params.l2.capacity_mib},
        {"bytes_per_cycle", params.l2.bytes_per_cycle},
        {"hit_latency_cycles", params.l2.hit_latency_cycles}}},
      {"core_bytes_per_cycle", params.core_bytes_per_cycle},
      {"launch_overhead_ns", params.launch_overhead_ns}};
}

double SimdKind::estimate_seconds(const KindUnit<SimdKind>& unit, const ir::Op& op,
                                  const OpSurroundings& at) {
  const KernelPlan plan = plan_op(unit.params, op, at.view, at.clock_ghz, unit.search.get());
  return static_cast<double>(
             estimate_cycles(plan, at.view.dram_bytes_per_cycle, at.view.dram_latency_cycles)) /
         (at.clock_ghz * 1e9);
}

std::optional<KindMappingQuery<SimdGemmMappingProblem>> SimdKind::mapping_query(
    const KindUnit<SimdKind>& unit, const ir::Op& op, const OpSurroundings& at) {
  return simd_mapping_query(unit.params, op, at.view, at.clock_ghz, at.energy);
}

}  // namespace polyarch::archs::simd
