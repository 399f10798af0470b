#include "sim/energy/tech_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "archs/registry.h"
#include "base/error.h"
#include "tests/support/tech_text.h"

namespace polyarch::sim {
namespace {

using test_support::embedded_tech_yaml;
using test_support::replaced;
using test_support::tech_parse_error;

TEST(TechTable, EveryShippedNodeLoadsWithAllEntries) {
  for (const std::string node : {"65nm", "45nm", "28nm", "16nm", "7nm"}) {
    ResolvedTech resolved = archs::resolve_tech(node);
    EXPECT_EQ(resolved.table.node, node);
    EXPECT_TRUE(resolved.note.empty());
    for (const std::string& key : tech_table_keys(archs::tech_device_sections()))
      EXPECT_GE(resolved.table.entry(key), 0.0);
  }
}

TEST(TechTable, LeakageGrowsWithTemperatureFromOneAtTheReference) {
  const TechTable table = archs::resolve_tech("28nm").table;
  EXPECT_NEAR(table.leakage_temperature_factor(25.0), 1.0, 1e-12);
  // (358.15/298.15)^2 exp(11604.5 x 0.30 / 1.5 x (1/298.15 - 1/358.15)) = 5.32.
  EXPECT_NEAR(table.leakage_temperature_factor(85.0), 5.32, 0.02);
  EXPECT_LT(table.leakage_temperature_factor(0.0), 1.0);
  double previous = 0.0;
  for (double celsius = -20; celsius <= 150; celsius += 10) {
    const double factor = table.leakage_temperature_factor(celsius);
    EXPECT_GT(factor, previous) << celsius;
    previous = factor;
  }
}

TEST(TechTable, ConvertersFollowTheWaldenFigureOfMerit) {
  const TechTable table = archs::resolve_tech("28nm").table;
  // ISAAC's 8-bit ADC: 2 mW at 1.28 GS/s = 1.5625 pJ per conversion, 0.0012 mm^2.
  EXPECT_NEAR(table.adc_pj_per_conversion(8), 1.5625, 0.01);
  EXPECT_NEAR(table.adc_area_mm2(8), 0.0012, 1e-5);
  EXPECT_NEAR(table.adc_pj_per_conversion(4) * 16.0, table.adc_pj_per_conversion(8), 1e-12);
  EXPECT_NEAR(table.dac_pj_per_drive(1), 0.39, 1e-9);
  EXPECT_NEAR(table.dac_pj_per_drive(2), 3 * 0.39, 1e-9);
}

TEST(TechTable, RouterAndConverterEnergyFallWithTheNode) {
  double previous_router = 1e9;
  double previous_adc = 1e9;
  for (const std::string node : {"65nm", "45nm", "28nm", "16nm", "7nm"}) {
    const TechTable table = archs::resolve_tech(node).table;
    EXPECT_LT(table.noc_router_pj_per_bit(), previous_router) << node;
    EXPECT_LT(table.adc_pj_per_conversion(8), previous_adc) << node;
    previous_router = table.noc_router_pj_per_bit();
    previous_adc = table.adc_pj_per_conversion(8);
  }
  // Park et al. (DAC 2012) at 45 nm, scaled to 0.9 V.
  EXPECT_NEAR(archs::resolve_tech("45nm").table.noc_router_pj_per_bit(), 0.11, 1e-12);
}

TEST(TechTable, FortyFiveNanometreMatchesHorowitz) {
  // Horowitz, ISSCC 2014, 45 nm: 8b mult 0.2 pJ, 32b add 0.1 pJ, 32b FP mult 3.7 pJ.
  TechTable table = archs::resolve_tech("45nm").table;
  EXPECT_DOUBLE_EQ(table.mult_pj(ir::DType::kInt8), 0.2);
  EXPECT_DOUBLE_EQ(table.mac_pj(ir::DType::kInt8, ir::DType::kInt32), 0.3);
  EXPECT_DOUBLE_EQ(table.mult_pj(ir::DType::kFp32), 3.7);
  // 8 KB SRAM, 64-bit access, 10 pJ.
  EXPECT_NEAR(table.sram_access_pj_per_bit(8, 64), 10.0 / 64.0, 1e-12);
}

TEST(TechTable, SmallerNodesSpendLessPerMac) {
  double previous = archs::resolve_tech("65nm").table.mac_pj(ir::DType::kInt8, ir::DType::kInt32);
  for (const std::string node : {"45nm", "28nm", "16nm", "7nm"}) {
    double mac = archs::resolve_tech(node).table.mac_pj(ir::DType::kInt8, ir::DType::kInt32);
    EXPECT_LT(mac, previous) << node;
    previous = mac;
  }
}

TEST(TechTable, SramEnergyGrowsWithSqrtOfCapacityBetweenPoints) {
  TechTable table = archs::resolve_tech("45nm").table;
  // Halfway in sqrt(kib) between 8 and 32 KiB (sqrt 2.83 .. 5.66) is sqrt(kib) = 4.24, 18 KiB.
  const double mid_kib = std::pow((std::sqrt(8.0) + std::sqrt(32.0)) / 2.0, 2.0);
  EXPECT_NEAR(table.sram_access_pj_per_bit(mid_kib, 64), (10.0 + 20.0) / 2.0 / 64.0, 1e-12);
  EXPECT_GT(table.sram_access_pj_per_bit(24576, 64), table.sram_access_pj_per_bit(1024, 64));
}

TEST(TechTable, NarrowSramAccessPaysAWholeReferenceWord) {
  TechTable table = archs::resolve_tech("28nm").table;
  EXPECT_DOUBLE_EQ(table.sram_access_pj_per_bit(32, 8), 8.0 * table.sram_access_pj_per_bit(32, 64));
  EXPECT_DOUBLE_EQ(table.sram_access_pj_per_bit(32, 2048), table.sram_access_pj_per_bit(32, 64));
}

TEST(TechTable, DramPresetIsPricedAsItsType) {
  TechTable table = archs::resolve_tech("28nm").table;
  EXPECT_DOUBLE_EQ(table.dram_pj_per_bit("hbm2e_3200"), table.dram_pj_per_bit("hbm2e"));
}

TEST(TechTable, NodeWithoutTableUsesNearestWithNote) {
  ResolvedTech resolved = archs::resolve_tech("22nm");
  EXPECT_EQ(resolved.table.node, "28nm");
  EXPECT_NE(resolved.note.find("22nm"), std::string::npos);
  EXPECT_EQ(archs::resolve_tech("10nm").table.node, "7nm");
}

TEST(TechTable, UnknownKeyNamesLocationAndSuggestion) {
  std::string text =
      replaced(embedded_tech_yaml("28nm"), "register_pj_per_bit:", "registr_pj_per_bit:");
  std::string message = tech_parse_error(text);
  EXPECT_NE(message.find("tech.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'register_pj_per_bit'"), std::string::npos) << message;
}

TEST(TechTable, MissingEntryIsNamed) {
  std::string message =
      tech_parse_error(replaced(embedded_tech_yaml("28nm"), "  gddr6:", "  gddr7:"));
  EXPECT_NE(message.find("dram_pj_per_bit.gddr7"), std::string::npos) << message;
}

TEST(TechTable, NegativeEnergyIsRejectedAtItsLine) {
  std::string text = embedded_tech_yaml("28nm");
  auto at = text.find("  int8: ");
  text.replace(at, text.find('\n', at) - at, "  int8: -1");
  std::string message = tech_parse_error(text);
  EXPECT_NE(message.find("tech.yaml:"), std::string::npos) << message;
}

TEST(TechTable, OverridesReplaceEntriesAndRejectUnknownActions) {
  TechTable table = archs::resolve_tech("28nm").table;
  apply_tech_overrides(
      table, parse_config_text("mult_pj: {int8: 0.5}\ndram_pj_per_bit: {ddr3: 10}", "arch.yaml"));
  EXPECT_DOUBLE_EQ(table.mult_pj(ir::DType::kInt8), 0.5);
  EXPECT_DOUBLE_EQ(table.dram_pj_per_bit("ddr3"), 10.0);
  try {
    apply_tech_overrides(table, parse_config_text("mult_pj: {int9: 0.5}", "arch.yaml"));
    ADD_FAILURE() << "expected an error";
  } catch (const Error& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("arch.yaml:1"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean 'mult_pj.int8'"), std::string::npos) << message;
  }
}

// A device section is the table's by declaration only: its model names it, the file prices it,
// and the table answers for exactly the devices and entries declared.
TEST(TechTable, DeclaredDeviceSectionIsRequiredReadAndLookedUpByName) {
  std::vector<TechDeviceSection> sections = archs::tech_device_sections();
  sections.push_back({"probe_cell", {"fast", "slow"}, {"read_fj"}});
  const std::string shipped = embedded_tech_yaml("28nm");
  const std::string with_probe =
      shipped + "probe_cell:\n  fast: {read_fj: 1.5}\n  slow: {read_fj: 4.0}\n";
  const TechTable table = parse_tech_table(parse_config_text(with_probe, "tech.yaml"), sections);
  EXPECT_DOUBLE_EQ(table.device_entry("probe_cell", "fast", "read_fj"), 1.5);
  EXPECT_DOUBLE_EQ(table.device_entry("probe_cell", "slow", "read_fj"), 4.0);
  EXPECT_THROW(table.device_entry("probe_cell", "medium", "read_fj"), Error);
  EXPECT_THROW(table.device_entry("probe_cell", "fast", "write_pj"), Error);
  // Declared but not priced: the file lacks it. Priced but not declared: unknown.
  try {
    parse_tech_table(parse_config_text(shipped, "tech.yaml"), sections);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("lacks entry 'probe_cell.fast.read_fj'"),
              std::string::npos)
        << error.what();
  }
  const std::string message = tech_parse_error(with_probe);
  EXPECT_NE(message.find("unknown energy entry 'probe_cell'"), std::string::npos) << message;
}

}  // namespace
}  // namespace polyarch::sim
