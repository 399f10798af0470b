#include "archs/crossbar/converter_energy.h"

#include <cmath>

namespace polyarch::archs::crossbar {

namespace {

// uW x ns = 1e-15 J = 1e-3 pJ.
constexpr double kPjPerMicrowattNs = 1e-3;

// A flash converter compares the input against every one of its 2^b - 1 reference levels at
// once: every comparator decides on every conversion, whatever the input. Its reference (a
// resistor ladder, or a multi-level sense amplifier's dummy columns) conducts throughout.
double flash_conversion_pj(const AdcParams& adc, const sim::TechTable& tech) {
  const double comparators = std::ldexp(1.0, static_cast<int>(adc.bits)) - 1.0;
  const double period_ns = 1.0 / adc.sample_rate_gsps;
  return comparators * tech.adc_comparator_pj() +
         adc.reference_power_uw * period_ns * kPjPerMicrowattNs;
}

}  // namespace

double adc_conversion_pj(const AdcParams& adc, const sim::TechTable& tech) {
  if (adc.energy_pj) return *adc.energy_pj;
  switch (adc.type) {
    case AdcType::kFlash:
      return flash_conversion_pj(adc, tech);
    case AdcType::kSar:
      break;
  }
  return tech.adc_pj_per_conversion(adc.bits);
}

}  // namespace polyarch::archs::crossbar
