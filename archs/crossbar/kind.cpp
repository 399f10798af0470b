#include "archs/crossbar/kind.h"

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/crossbar_space.h"
#include "archs/crossbar/energy.h"
#include "archs/crossbar/module.h"

namespace polyarch::archs::crossbar {

namespace {

// An energy the arch gives, or null where the technology table prices it at run time
// (crossbar_event_energy).
nlohmann::ordered_json energy_or_null(const std::optional<double>& energy) {
  return energy ? nlohmann::ordered_json(*energy) : nlohmann::ordered_json(nullptr);
}

}  // namespace

bool CrossbarUnitConfig::supports(const ir::Op& op) const { return crossbar_supports(op); }

sim::UnitFactory CrossbarUnitConfig::factory(double soc_clock_ghz) const {
  return crossbar_unit_factory(params_, soc_clock_ghz, decisions_);
}

nlohmann::ordered_json CrossbarUnitConfig::describe() const {
  return {{"name", params_.name},
          {"kind", "crossbar"},
          {"tiles", params_.tiles},
          {"arrays_per_tile", params_.arrays_per_tile},
          {"rows", params_.rows},
          {"cols", params_.cols},
          {"bits_per_cell", params_.cell.bits_per_cell},
          {"cell",
           {{"device", params_.cell.device},
            {"read_energy_fj", energy_or_null(params_.cell.read_energy_fj)},
            {"write_energy_pj", energy_or_null(params_.cell.write_energy_pj)}}},
          {"weight_bits", params_.weight_bits},
          {"input_bits", params_.input_bits},
          {"dac_bits", params_.dac_bits},
          {"signed_weights", params_.differential ? "differential" : "offset"},
          {"adc",
           {{"bits", params_.adc.bits},
            {"columns_per_adc", params_.adc.columns_per_adc},
            {"sample_rate_gsps", params_.adc.sample_rate_gsps},
            {"energy_pj", energy_or_null(params_.adc.energy_pj)}}},
          {"read_ns", params_.read_ns}};
}

std::optional<double> CrossbarUnitConfig::estimate_seconds(const ir::Op& op,
                                                           const MemoryContext& memory,
                                                           double soc_clock_ghz) const {
  (void)soc_clock_ghz;
  if (!supports(op)) return std::nullopt;
  const CrossbarMemory dram{memory.dram_bytes_per_second, memory.dram_latency_s};
  return crossbar_seconds(plan_for_run(params_, op, dram, decisions_.get()), dram);
}

std::optional<MappingQuery> CrossbarUnitConfig::mapping_query(const ir::Op& op,
                                                              const MemoryContext& memory,
                                                              double soc_clock_ghz) const {
  (void)soc_clock_ghz;  // as estimate_seconds
  if (!supports(op)) return std::nullopt;
  return generic_query(crossbar_mapping_query(
      params_, op, {memory.dram_bytes_per_second, memory.dram_latency_s}, mapping_energy()));
}

void CrossbarUnitConfig::use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) {
  decisions_ = std::make_shared<UnitSearch>(std::move(policy), describe().dump(), mapping_energy());
}

std::optional<sim::EnergyByAction> CrossbarUnitConfig::op_energy(
    const sim::OpResult& op, const sim::EnergyContext& context) const {
  return crossbar_op_energy(params_, op, context);
}

std::optional<double> CrossbarUnitConfig::area_mm2(const sim::TechTable& tech) const {
  (void)tech;  // the preset gives array and ADC areas from its published design
  return crossbar_area_mm2(params_);
}

std::unique_ptr<UnitConfig> parse_unit_config(MapReader& unit_reader, const std::string& name) {
  return std::make_unique<CrossbarUnitConfig>(parse_crossbar_params(unit_reader, name));
}

}  // namespace polyarch::archs::crossbar
