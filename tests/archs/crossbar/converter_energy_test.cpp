// Energy of one conversion by converter type, against hand derivations from the 65 nm
// technology table's entries (configs/tech/65nm.yaml: vdd 1.0 V, adc.comparator_ff 5.618,
// adc.fj_per_conversion_step 19).
#include "archs/crossbar/converter_energy.h"

#include <gtest/gtest.h>

#include <string>

#include "archs/crossbar/kind.h"
#include "archs/registry.h"
#include "archs/soc/soc_config.h"
#include "tests/archs/crossbar/small_unit.h"
#include "tests/base/error_capture.h"

namespace polyarch::archs::crossbar {
namespace {

const sim::TechTable& tech_65nm() {
  static const sim::ResolvedTech tech = resolve_tech("65nm");
  return tech.table;
}

AdcParams adc_of(AdcType type, int64_t bits, double sample_rate_gsps = 2.0) {
  AdcParams adc;
  adc.type = type;
  adc.bits = bits;
  adc.sample_rate_gsps = sample_rate_gsps;
  return adc;
}

TEST(ConverterEnergy, AFourBitFlashConversionFiresFifteenComparators) {
  // 15 comparators x 5.618 fF x (1.0 V)^2 = 84.27 fJ.
  EXPECT_NEAR(adc_conversion_pj(adc_of(AdcType::kFlash, 4), tech_65nm()), 0.08427, 1e-9);
}

TEST(ConverterEnergy, AFlashReferenceLadderDrawsItsCurrentOverTheConversionPeriod) {
  // A ladder of 100 uA from 1 V (100 uW) over one conversion at 2 GS/s (0.5 ns): 50 fJ, on top of
  // the comparators' 84.27 fJ.
  AdcParams adc = adc_of(AdcType::kFlash, 4, 2.0);
  adc.reference_power_uw = 100.0 * 1.0;
  EXPECT_NEAR(adc_conversion_pj(adc, tech_65nm()), 0.08427 + 0.050, 1e-9);
  // Half the rate: the ladder conducts twice as long per conversion.
  adc.sample_rate_gsps = 1.0;
  EXPECT_NEAR(adc_conversion_pj(adc, tech_65nm()), 0.08427 + 0.100, 1e-9);
}

TEST(ConverterEnergy, FlashComparatorsDoubleWithEachBitSarStaysTheWaldenRule) {
  // 5 bits: 31 comparators, 31 x 5.618 fJ; a SAR prices 19 fJ x 2^5 = 0.608 pJ whatever its rate.
  EXPECT_NEAR(adc_conversion_pj(adc_of(AdcType::kFlash, 5), tech_65nm()), 31 * 5.618e-3, 1e-9);
  EXPECT_NEAR(adc_conversion_pj(adc_of(AdcType::kSar, 5), tech_65nm()), 0.608, 1e-9);
  EXPECT_NEAR(adc_conversion_pj(adc_of(AdcType::kSar, 5, 0.1), tech_65nm()), 0.608, 1e-9);
}

TEST(ConverterEnergy, AGivenEnergyPerConversionOverridesEitherType) {
  AdcParams adc = adc_of(AdcType::kFlash, 4);
  adc.energy_pj = 1.25;
  EXPECT_DOUBLE_EQ(adc_conversion_pj(adc, tech_65nm()), 1.25);
}

SocConfig soc_with_adc(const std::string& adc) {
  const std::string text = test_units::one_array_65nm_yaml(
      "    cell: {device: sram, bits_per_cell: 1}\n    adc: " + adc + "\n    read_ns: 10\n");
  return parse_soc_config(parse_config_text(text, "arch.yaml"));
}

TEST(ConverterEnergyParams, TheTypeDefaultsToSarAndReadsFlash) {
  const auto type_of = [](const std::string& adc) {
    const SocConfig soc = soc_with_adc(adc);
    return dynamic_cast<const CrossbarUnitConfig&>(*soc.units.front()).params().adc.type;
  };
  EXPECT_EQ(type_of("{bits: 4, columns_per_adc: 4, sample_rate_gsps: 2}"), AdcType::kSar);
  EXPECT_EQ(type_of("{type: flash, bits: 4, columns_per_adc: 4, sample_rate_gsps: 2}"),
            AdcType::kFlash);
}

TEST(ConverterEnergyParams, AReferencePowerOnASarNamesItsKeyAndLine) {
  const std::string error = testing::error_text([] {
    soc_with_adc("{bits: 4, columns_per_adc: 4, sample_rate_gsps: 2, reference_power_uw: 10}");
  });
  EXPECT_NE(error.find("arch.yaml:"), std::string::npos) << error;
  EXPECT_NE(error.find("adc.reference_power_uw"), std::string::npos) << error;
}

TEST(ConverterEnergyParams, ATypeBesideAGivenEnergyNamesItsKeyAndLine) {
  const std::string error = testing::error_text([] {
    soc_with_adc("{type: flash, bits: 4, columns_per_adc: 4, sample_rate_gsps: 2, energy_pj: 1}");
  });
  EXPECT_NE(error.find("arch.yaml:"), std::string::npos) << error;
  EXPECT_NE(error.find("adc.type"), std::string::npos) << error;
}

TEST(ConverterEnergyParams, AnUnknownTypeNamesTheChoices) {
  const std::string error = testing::error_text(
      [] { soc_with_adc("{type: pipelined, bits: 4, columns_per_adc: 4, sample_rate_gsps: 2}"); });
  EXPECT_NE(error.find("adc.type"), std::string::npos) << error;
  EXPECT_NE(error.find("flash"), std::string::npos) << error;
}

}  // namespace
}  // namespace polyarch::archs::crossbar
