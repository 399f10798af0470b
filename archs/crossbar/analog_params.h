#pragma once
// The functional (numerical) effects of a crossbar unit, the `analog:` map of its YAML: what
// `polyarch run --functional --arch` applies to the MVMs the unit runs. Every effect can be
// switched off (and all are off by default, except the ADC, whose resolution is `adc.bits`);
// with all off and enough ADC bits the unit computes the ideal quantised GEMM exactly.
// Equations: archs/crossbar/README.md ("Functional model").
#include <string>
#include <vector>

#include "base/key_reader.h"
#include "base/key_table.h"

namespace polyarch::archs::crossbar {

enum class ProgramVariation { kLognormal, kGaussian };

struct AnalogParams {
  // false: the ADCs return every column sum exactly (no rounding, no clipping).
  bool adc_quantization = true;
  // Conductance programming variation, fixed per cell once programmed: lognormal g * exp(s z)
  // or Gaussian g * (1 + s z) (clamped at 0), z ~ N(0, 1), s = program_sigma.
  double program_sigma = 0.0;
  ProgramVariation program_variation = ProgramVariation::kLognormal;
  // Read noise, fresh on every array read: each cell's current gets relative Gaussian noise of
  // this sigma.
  double read_sigma = 0.0;
  // Stuck-at faults: the fraction of cells stuck at the lowest (SA0) or highest (SA1) level.
  double stuck_at_zero_rate = 0.0;
  double stuck_at_one_rate = 0.0;
  // IR drop (the array's wire network, solved: wire_drop.h): wire resistance of one cell pitch
  // of row or column wire, against the resistance of a cell at its highest level. 0 = ideal wires.
  double wire_resistance_ohm = 0.0;
  double cell_on_resistance_ohm = 10000.0;

  bool any_noise() const { return program_sigma > 0.0 || read_sigma > 0.0; }
};

// The rows of the `analog:` map in the crossbar's key table.
std::vector<KeySpec> analog_keys();
// Reads `analog:` through those rows (absent: every effect at its default).
AnalogParams parse_analog_params(KeyReader& unit);

std::string program_variation_name(ProgramVariation variation);  // "lognormal", "gaussian"

}  // namespace polyarch::archs::crossbar
