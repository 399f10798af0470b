#include "archs/crossbar/analog_params.h"

#include "base/error.h"
#include "base/key_specs.h"

namespace polyarch::archs::crossbar {

std::vector<KeySpec> analog_keys() {
  const AnalogParams analog;
  return {map_key("analog", "{}", "functional effects of `polyarch run --functional` (off)"),
          bool_key("analog.adc_quantization", analog.adc_quantization,
                   "the ADCs round and clip column sums (false: exact sums)"),
          number_key("analog.program_sigma", "", default_text(analog.program_sigma), 0.0, 10.0,
                     "conductance programming variation, fixed per cell"),
          choice_key("analog.program_variation", program_variation_name(analog.program_variation),
                     {"lognormal", "gaussian"}, "g exp(s z), or g (1 + s z) clamped at 0"),
          number_key("analog.read_sigma", "", default_text(analog.read_sigma), 0.0, 10.0,
                     "relative Gaussian noise of a cell's current on every read"),
          number_key("analog.stuck_at_zero_rate", "", default_text(analog.stuck_at_zero_rate), 0.0,
                     1.0, "fraction of cells stuck at the lowest level"),
          number_key("analog.stuck_at_one_rate", "", default_text(analog.stuck_at_one_rate), 0.0,
                     1.0, "fraction of cells stuck at the highest level"),
          number_key("analog.wire_resistance_ohm", "ohm", default_text(analog.wire_resistance_ohm),
                     0.0, 1e6, "row or column wire per cell pitch (0: ideal wires, no IR drop)"),
          number_key("analog.cell_on_resistance_ohm", "ohm",
                     default_text(analog.cell_on_resistance_ohm), 1e-3, 1e12,
                     "a cell at its highest level")};
}

AnalogParams parse_analog_params(KeyReader& unit) {
  AnalogParams analog;
  KeyReader reader = unit.nested_or_defaults("analog");
  analog.adc_quantization = reader.read_bool("adc_quantization");
  analog.program_sigma = reader.read_number("program_sigma");
  analog.program_variation = reader.read_choice("program_variation") == "gaussian"
                                 ? ProgramVariation::kGaussian
                                 : ProgramVariation::kLognormal;
  // The variation's form shapes the programming spread only: without one another form would
  // change nothing.
  if (const ConfigNode* node = reader.map_reader().node().find("program_variation");
      node != nullptr && analog.program_sigma == 0.0 &&
      analog.program_variation != AnalogParams{}.program_variation) {
    throw_bad_input(node->where(),
                    "analog.program_variation is the form of the programming spread; "
                    "program_sigma: 0 (the default) has none");
  }
  analog.read_sigma = reader.read_number("read_sigma");
  analog.stuck_at_zero_rate = reader.read_number("stuck_at_zero_rate");
  analog.stuck_at_one_rate = reader.read_number("stuck_at_one_rate");
  analog.wire_resistance_ohm = reader.read_number("wire_resistance_ohm");
  analog.cell_on_resistance_ohm = reader.read_number("cell_on_resistance_ohm");
  if (analog.stuck_at_zero_rate + analog.stuck_at_one_rate > 1.0) {
    throw_bad_input(reader.map_reader().node().where(),
                    "analog.stuck_at_zero_rate + analog.stuck_at_one_rate exceed 1");
  }
  reader.finish();
  return analog;
}

std::string program_variation_name(ProgramVariation variation) {
  return variation == ProgramVariation::kGaussian ? "gaussian" : "lognormal";
}

}  // namespace polyarch::archs::crossbar
