#include "archs/pim/kind.h"

#include "archs/pim/cost_model.h"
#include "archs/pim/energy.h"
#include "archs/pim/module.h"
#include "archs/pim/pim_space.h"

namespace polyarch::archs::pim {

bool PimUnitConfig::supports(const ir::Op& op) const { return pim_supports(params_, op); }

sim::UnitFactory PimUnitConfig::factory(double soc_clock_ghz) const {
  (void)soc_clock_ghz;  // PUs run off the DRAM command clock
  return pim_unit_factory(params_, decisions_);
}

nlohmann::ordered_json PimUnitConfig::describe() const {
  return {{"name", params_.name},
          {"kind", "pim"},
          {"memory", params_.memory_preset},
          {"devices", params_.devices},
          {"pseudo_channels", params_.pseudo_channels()},
          {"banks_per_pu", params_.banks_per_pu},
          {"pus", params_.pu_count()},
          {"lanes", params_.lanes},
          {"pu_clock_mhz", params_.pu_clock_mhz},
          {"dtype", ir::dtype_name(params_.dtype)},
          {"functions", params_.functions},
          {"register_bytes", params_.register_bytes},
          {"max_batch", params_.max_batch},
          {"mode", params_.mode == PimMode::kAllBank ? "all_bank" : "per_bank"},
          {"reduction", params_.reduction == Reduction::kHost ? "host" : "channel_adder"}};
}

std::optional<double> PimUnitConfig::estimate_seconds(const ir::Op& op,
                                                     const MemoryContext& memory,
                                                     double soc_clock_ghz) const {
  (void)memory;  // the PUs stream their own banks; external transfers are in the plan
  (void)soc_clock_ghz;
  if (!supports(op)) return std::nullopt;
  const double clock_hz = static_cast<double>(params_.dram.organization.clock_mhz) * 1e6;
  return static_cast<double>(plan_for_run(params_, op, decisions_.get()).dram_cycles) / clock_hz;
}

std::optional<MappingQuery> PimUnitConfig::mapping_query(const ir::Op& op,
                                                         const MemoryContext& memory,
                                                         double soc_clock_ghz) const {
  (void)memory;  // as estimate_seconds
  (void)soc_clock_ghz;
  if (!supports(op)) return std::nullopt;
  return generic_query(pim_mapping_query(params_, op, mapping_energy()));
}

void PimUnitConfig::use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
  decisions_ = std::make_shared<UnitSearch>(std::move(policy), describe().dump(), mapping_energy());
}

std::optional<sim::EnergyByAction> PimUnitConfig::op_energy(
    const sim::OpResult& op, const sim::EnergyContext& context) const {
  return pim_op_energy(params_, op, context);
}

std::optional<double> PimUnitConfig::area_mm2(const sim::TechTable& tech) const {
  return pim_area_mm2(params_, tech);
}

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name) {
  return std::make_unique<PimUnitConfig>(parse_pim_params(unit_reader, name));
}

}  // namespace polyarch::archs::pim
