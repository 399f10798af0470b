#include "archs/crossbar/analog_params.h"

#include "base/error.h"

namespace polyarch::archs::crossbar {

AnalogParams parse_analog_params(MapReader& unit_reader) {
  AnalogParams analog;
  const ConfigNode* node = unit_reader.optional("analog");
  if (node == nullptr) return analog;
  MapReader reader(*node);
  analog.adc_quantization = reader.optional_bool("adc_quantization", analog.adc_quantization);
  analog.program_sigma = reader.optional_double("program_sigma", analog.program_sigma, 0.0, 10.0);
  analog.program_variation = reader.optional_enum("program_variation", "lognormal",
                                                  {"lognormal", "gaussian"}) == "gaussian"
                                 ? ProgramVariation::kGaussian
                                 : ProgramVariation::kLognormal;
  analog.read_sigma = reader.optional_double("read_sigma", analog.read_sigma, 0.0, 10.0);
  analog.stuck_at_zero_rate =
      reader.optional_double("stuck_at_zero_rate", analog.stuck_at_zero_rate, 0.0, 1.0);
  analog.stuck_at_one_rate =
      reader.optional_double("stuck_at_one_rate", analog.stuck_at_one_rate, 0.0, 1.0);
  analog.wire_resistance_ohm =
      reader.optional_double("wire_resistance_ohm", analog.wire_resistance_ohm, 0.0, 1e6);
  analog.cell_on_resistance_ohm =
      reader.optional_double("cell_on_resistance_ohm", analog.cell_on_resistance_ohm, 1e-3, 1e12);
  if (analog.stuck_at_zero_rate + analog.stuck_at_one_rate > 1.0) {
    throw_bad_input(node->where(), "analog.stuck_at_zero_rate + analog.stuck_at_one_rate exceed 1");
  }
  reader.finish();
  return analog;
}

std::string program_variation_name(ProgramVariation variation) {
  return variation == ProgramVariation::kGaussian ? "gaussian" : "lognormal";
}

}  // namespace polyarch::archs::crossbar
