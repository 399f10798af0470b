#include "archs/simd/kind.h"

#include "archs/simd/cost_model.h"
#include "archs/simd/energy.h"
#include "archs/simd/gemm_space.h"
#include "archs/simd/module.h"

namespace polyarch::archs::simd {

bool SimdUnitConfig::supports(const ir::Op& op) const { return simd_supports(op); }

sim::UnitFactory SimdUnitConfig::factory(double soc_clock_ghz) const {
  return simd_unit_factory(params_, soc_clock_ghz, {}, search_);
}

nlohmann::ordered_json SimdUnitConfig::describe() const {
  nlohmann::ordered_json engine_rates = nlohmann::ordered_json::object();
  for (const auto& [dtype, macs] : params_.matrix_engine.macs_per_cycle) {
    engine_rates[std::string(ir::dtype_name(dtype))] = macs;
  }
  return {{"name", params_.name},
          {"kind", "simd"},
          {"count", params_.count},
          {"clock_ghz", params_.clock_ghz ? nlohmann::ordered_json(*params_.clock_ghz)
                                          : nlohmann::ordered_json(nullptr)},
          {"dtype", ir::dtype_name(params_.dtype)},
          {"vector",
           {{"lanes", params_.vector.lanes},
            {"sfu_lanes", params_.vector.sfu_lanes},
            {"registers_kib", params_.vector.registers_kib},
            {"packed_narrow_types", params_.vector.packed_narrow_types}}},
          {"matrix_engine",
           {{"per_core", params_.matrix_engine.per_core},
            {"min_tile_m", params_.matrix_engine.min_tile_m},
            {"macs_per_cycle", engine_rates}}},
          {"scratchpad",
           {{"kib", params_.scratchpad.kib},
            {"bytes_per_cycle", params_.scratchpad.bytes_per_cycle}}},
          {"l2",
           {{"capacity_mib", params_.l2.capacity_mib},
            {"bytes_per_cycle", params_.l2.bytes_per_cycle},
            {"hit_latency_cycles", params_.l2.hit_latency_cycles}}},
          {"core_bytes_per_cycle", params_.core_bytes_per_cycle},
          {"launch_overhead_ns", params_.launch_overhead_ns}};
}

std::optional<sim::EnergyByAction> SimdUnitConfig::op_energy(
    const sim::OpResult& op, const sim::EnergyContext& context) const {
  return simd_op_energy(params_, op, context);
}

std::optional<double> SimdUnitConfig::area_mm2(const sim::TechTable& tech) const {
  return simd_area_mm2(params_, tech);
}

std::optional<double> SimdUnitConfig::estimate_seconds(const ir::Op& op,
                                                      const MemoryContext& memory,
                                                      double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
  const MemoryView view =
      sim::memory_view(memory.dram_bytes_per_second, memory.dram_latency_s, clock_ghz);
  const KernelPlan plan = plan_op(params_, op, view, clock_ghz, search_.get());
  return static_cast<double>(
             estimate_cycles(plan, view.dram_bytes_per_cycle, view.dram_latency_cycles)) /
         (clock_ghz * 1e9);
}

void SimdUnitConfig::use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
  search_ = std::make_shared<UnitSearch>(std::move(policy), describe().dump(), mapping_energy());
}

std::optional<MappingQuery> SimdUnitConfig::mapping_query(const ir::Op& op,
                                                         const MemoryContext& memory,
                                                         double soc_clock_ghz) const {
  if (!supports(op)) return std::nullopt;
  const double clock_ghz = params_.clock_ghz.value_or(soc_clock_ghz);
  return generic_query(
      simd_mapping_query(params_, op, memory.view(clock_ghz), clock_ghz, mapping_energy()));
}

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name) {
  return std::make_unique<SimdUnitConfig>(parse_simd_params(unit_reader, name));
}

}  // namespace polyarch::archs::simd
