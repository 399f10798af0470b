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

sim::UnitFactory CrossbarKind::factory(const KindUnit<CrossbarKind>& unit, double soc_clock_ghz) {
  return crossbar_unit_factory(unit.params, soc_clock_ghz, unit.search);
}

nlohmann::ordered_json CrossbarKind::describe(const Params& params) {
  return {{"name", params.name},
          {"kind", "crossbar"},
          {"tiles", params.tiles},
          {"arrays_per_tile", params.arrays_per_tile},
          {"rows", params.rows},
          {"cols", params.cols},
          {"bits_per_cell", params.cell.bits_per_cell},
          {"cell",
           {{"device", params.cell.device},
            {"read_energy_fj", energy_or_null(params.cell.read_energy_fj)},
            {"write_energy_pj", energy_or_null(params.cell.write_energy_pj)}}},
          {"weight_bits", params.weight_bits},
          {"input_bits", params.input_bits},
          {"dac_bits", params.dac_bits},
          {"signed_weights", params.differential ? "differential" : "offset"},
          {"adc",
           {{"bits", params.adc.bits},
            {"columns_per_adc", params.adc.columns_per_adc},
            {"sample_rate_gsps", params.adc.sample_rate_gsps},
            {"energy_pj", energy_or_null(params.adc.energy_pj)}}},
          {"read_ns", params.read_ns}};
}

double CrossbarKind::estimate_seconds(const KindUnit<CrossbarKind>& unit, const ir::Op& op,
                                      const OpSurroundings& at) {
  // Timing is in seconds (read_ns, ADC rate): the clock does not enter.
  return crossbar_seconds(plan_for_run(unit.params, op, at.memory, unit.search.get()), at.memory);
}

std::optional<KindMappingQuery<CrossbarMappingProblem>> CrossbarKind::mapping_query(
    const KindUnit<CrossbarKind>& unit, const ir::Op& op, const OpSurroundings& at) {
  return crossbar_mapping_query(unit.params, op, at.memory, at.energy);
}

}  // namespace polyarch::archs::crossbar
