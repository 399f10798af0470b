// Word- and bit-line energy of SRAM-CIM reads, against hand derivations from the 65 nm
// technology table (configs/tech/65nm.yaml: vdd 1.0 V; crossbar_line.sram bitline_ff 0.2228,
// wordline_ff 0.6751 per cell).
#include "archs/crossbar/line_energy.h"

#include <gtest/gtest.h>

#include <string>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/energy.h"
#include "archs/crossbar/kind.h"
#include "archs/registry.h"
#include "archs/soc/soc_config.h"
#include "tests/archs/crossbar/small_unit.h"
#include "tests/base/error_capture.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::crossbar {
namespace {

// One 64 x 64 array of `device` cells with 4-bit inputs through `dac_bits`-bit DACs.
SocConfig soc_with(const std::string& device, int dac_bits, bool dac_pulses) {
  const std::string text = test_units::one_array_65nm_yaml(R"(    cell: {device: )" + device +
                                                            R"(, bits_per_cell: 1}
    weight_bits: 4
    input_bits: 4
    dac_bits: )" + std::to_string(dac_bits) + R"(
    dac_pulses: )" + (dac_pulses ? "true" : "false") + R"(
    adc: {bits: 8, columns_per_adc: 4, sample_rate_gsps: 2}
    read_ns: 10
)");
  return parse_soc_config(parse_config_text(text, "arch.yaml"));
}

const CrossbarParams& params_of(const SocConfig& soc) {
  return dynamic_cast<const CrossbarUnitConfig&>(*soc.units.front()).params();
}

TEST(LineEnergy, ABitLineIsItsRowsOfCellCapacitancePrechargedToTheSupply) {
  const SocConfig soc = soc_with("sram", 1, false);
  // 64 rows x 0.2228 fF x (1.0 V)^2 = 14.26 fJ per column read.
  EXPECT_NEAR(bitline_pj_per_column_read(params_of(soc), soc.tech.table), 64 * 0.2228e-3, 1e-12);
}

TEST(LineEnergy, ALevelDriveChargesItsWordLineToHalfTheSupplyOnAverage) {
  const SocConfig soc = soc_with("sram", 1, false);
  // 64 columns x 0.6751 fF: C (Vdd / 2) Vdd = 0.5 x 43.21 fJ.
  EXPECT_NEAR(wordline_pj_per_drive(params_of(soc), soc.tech.table), 0.5 * 64 * 0.6751e-3, 1e-12);
}

TEST(LineEnergy, APulseCodedDigitChargesItsWordLineOncePerPulse) {
  const SocConfig soc = soc_with("sram", 4, true);
  // Random 4-bit digits average 7.5 pulses: 7.5 x 64 x 0.6751 fF x (1.0 V)^2 = 324.0 fJ.
  EXPECT_NEAR(wordline_pj_per_drive(params_of(soc), soc.tech.table), 7.5 * 64 * 0.6751e-3, 1e-12);
}

sim::EnergyByAction energy_of(const SocConfig& soc, const ir::Op& op) {
  sim::OpResult result;
  result.unit_clock_ghz = 1.0;
  result.total_cycles = 1000;
  return crossbar_op_energy(params_of(soc), result, plan_op(params_of(soc), op).activity,
                            {soc.tech.table, "ddr4"});
}

TEST(LineEnergy, AnSramGemmPaysItsLinesPerConversionAndPerRowDrive) {
  const SocConfig soc = soc_with("sram", 4, true);
  // 8 vectors through 64 x 16 four-bit weights (4 one-bit cells each): every read converts all
  // 64 columns and drives all 64 rows.
  const ir::Op op = test_support::make_op("fc", ir::GemmAttrs{.m = 8, .n = 16, .k = 64});
  const CrossbarActivity activity = plan_op(params_of(soc), op).activity;
  EXPECT_EQ(activity.adc_conversions, activity.dac_drives);
  EXPECT_EQ(activity.adc_conversions % (8 * 64), 0);
  const sim::EnergyByAction energy = energy_of(soc, op);
  const auto conversions = static_cast<double>(activity.adc_conversions);
  EXPECT_NEAR(energy.at("bit_lines"), conversions * (64 * 0.2228e-15), 1e-20);
  EXPECT_NEAR(energy.at("word_lines"), conversions * (7.5 * 64 * 0.6751e-15), 1e-20);
}

TEST(LineEnergy, ResistiveArraysLeaveTheirLinesToTheDacsAndConverters) {
  const SocConfig soc = soc_with("rram", 1, false);
  const ir::Op op = test_support::make_op("fc", ir::GemmAttrs{.m = 8, .n = 16, .k = 64});
  const sim::EnergyByAction energy = energy_of(soc, op);
  EXPECT_EQ(energy.count("bit_lines"), 0U);
  EXPECT_EQ(energy.count("word_lines"), 0U);
  EXPECT_FALSE(prices_lines("rram"));
  EXPECT_FALSE(prices_lines("pcm"));
}

TEST(LineEnergyParams, PulsesOnAResistiveArrayNameTheKeyAndLine) {
  const std::string error = testing::error_text([] { soc_with("rram", 4, true); });
  EXPECT_NE(error.find("arch.yaml:"), std::string::npos) << error;
  EXPECT_NE(error.find("dac_pulses"), std::string::npos) << error;
}

TEST(LineEnergyParams, PulsesOfOneBitDigitsAreRefused) {
  const std::string error = testing::error_text([] { soc_with("sram", 1, true); });
  EXPECT_NE(error.find("dac_pulses"), std::string::npos) << error;
}

}  // namespace
}  // namespace polyarch::archs::crossbar
