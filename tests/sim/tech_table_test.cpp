#include "sim/energy/tech_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "base/error.h"
#include "sim/energy/tech_registry.h"

namespace polyarch::sim {
namespace {

std::string embedded_yaml(const std::string& node) {
  for (const EmbeddedTechFile& file : embedded_tech_files()) {
    if (file.node == node) return std::string(file.yaml);
  }
  ADD_FAILURE() << "no embedded table " << node;
  return "";
}

// The error message of parsing `text` as a tech file (fails the test when it parses).
std::string parse_error(const std::string& text) {
  try {
    parse_tech_table(parse_config_text(text, "tech.yaml"));
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return error.what();
  }
  ADD_FAILURE() << "expected an error";
  return "";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(TechTable, EveryShippedNodeLoadsWithAllEntries) {
  for (const std::string node : {"65nm", "45nm", "28nm", "16nm", "7nm"}) {
    ResolvedTech resolved = resolve_tech_table(node);
    EXPECT_EQ(resolved.table.node, node);
    EXPECT_TRUE(resolved.note.empty());
    for (const std::string& key : tech_table_keys()) EXPECT_GE(resolved.table.entry(key), 0.0);
  }
}

TEST(TechTable, EveryShippedNodePricesEveryCrossbarCellDevice) {
  const TechTable reference = resolve_tech_table("28nm").table;
  for (const std::string node : {"65nm", "45nm", "28nm", "16nm", "7nm"}) {
    const TechTable table = resolve_tech_table(node).table;
    for (const std::string& device : crossbar_cell_devices()) {
      EXPECT_GT(table.crossbar_cell_read_fj(device), 0.0) << node << " " << device;
      EXPECT_GT(table.crossbar_cell_write_pj(device), 0.0) << node << " " << device;
    }
    // A resistive cell's V^2 G t does not follow the CMOS node: the same entry everywhere.
    for (const std::string device : {"rram", "pcm"}) {
      EXPECT_DOUBLE_EQ(table.crossbar_cell_read_fj(device),
                       reference.crossbar_cell_read_fj(device));
      EXPECT_DOUBLE_EQ(table.crossbar_cell_write_pj(device),
                       reference.crossbar_cell_write_pj(device));
    }
    // An SRAM-CIM array is written as an SRAM: the 8 KiB point of the table's own SRAM curve.
    EXPECT_NEAR(table.crossbar_cell_write_pj("sram"), table.sram_access_pj_per_bit(8, 64), 1e-6)
        << node;
  }
  // ISAAC, Table II: 0.3 mW per 128 x 128 crossbar over a 100 ns cycle.
  EXPECT_NEAR(reference.crossbar_cell_read_fj("rram"), 0.3e-3 * 100e-9 / (128 * 128) * 1e15, 0.01);
}

TEST(TechTable, SramCellEnergyFallsWithTheNodeAsLogicDoes) {
  double previous = 1e9;
  for (const std::string node : {"65nm", "45nm", "28nm", "16nm", "7nm"}) {
    const TechTable table = resolve_tech_table(node).table;
    const double read = table.crossbar_cell_read_fj("sram");
    EXPECT_LT(read, previous) << node;
    previous = read;
    // Both follow the node's logic energy factor [SB] from the 45 nm entries.
    const TechTable base = resolve_tech_table("45nm").table;
    EXPECT_NEAR(read / base.crossbar_cell_read_fj("sram"),
                table.mult_pj(ir::DType::kInt8) / base.mult_pj(ir::DType::kInt8), 1e-3)
        << node;
  }
  // Valavi et al. (JSSC 2019), 65 nm: 1.2 fF x (1.0 V)^2 x activity 0.5.
  EXPECT_NEAR(resolve_tech_table("65nm").table.crossbar_cell_read_fj("sram"), 0.6, 1e-12);
}

TEST(TechTable, MissingCrossbarCellEntryNamesTheFileAndKey) {
  const std::string text = replace(embedded_yaml("28nm"), "    write_pj: 15.0\n", "");
  const std::string message = parse_error(text);
  EXPECT_NE(message.find("tech.yaml"), std::string::npos) << message;
  EXPECT_NE(message.find("crossbar_cell.pcm.write_pj"), std::string::npos) << message;
}

TEST(TechTable, NegativeCrossbarCellEntryNamesTheLineAndKey) {
  const std::string text = replace(embedded_yaml("28nm"), "read_fj: 1.83", "read_fj: -1.83");
  const std::string message = parse_error(text);
  EXPECT_NE(message.find("tech.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find("crossbar_cell.rram.read_fj"), std::string::npos) << message;
  EXPECT_NE(message.find("-1.83"), std::string::npos) << message;
}

TEST(TechTable, CrossbarCellOverridesReplaceOneDeviceAndRejectUnknownDevices) {
  TechTable table = resolve_tech_table("28nm").table;
  const double rram_read = table.crossbar_cell_read_fj("rram");
  apply_tech_overrides(table,
                       parse_config_text("crossbar_cell: {pcm: {read_fj: 2.5}}", "arch.yaml"));
  EXPECT_DOUBLE_EQ(table.crossbar_cell_read_fj("pcm"), 2.5);
  EXPECT_DOUBLE_EQ(table.crossbar_cell_read_fj("rram"), rram_read);
  try {
    apply_tech_overrides(table,
                         parse_config_text("crossbar_cell: {rran: {read_fj: 1}}", "arch.yaml"));
    ADD_FAILURE() << "expected an error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("arch.yaml:1"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean 'crossbar_cell.rram'"), std::string::npos) << message;
  }
}

TEST(TechTable, LeakageGrowsWithTemperatureFromOneAtTheReference) {
  const TechTable table = resolve_tech_table("28nm").table;
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
  const TechTable table = resolve_tech_table("28nm").table;
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
    const TechTable table = resolve_tech_table(node).table;
    EXPECT_LT(table.noc_router_pj_per_bit(), previous_router) << node;
    EXPECT_LT(table.adc_pj_per_conversion(8), previous_adc) << node;
    previous_router = table.noc_router_pj_per_bit();
    previous_adc = table.adc_pj_per_conversion(8);
  }
  // Park et al. (DAC 2012) at 45 nm, scaled to 0.9 V.
  EXPECT_NEAR(resolve_tech_table("45nm").table.noc_router_pj_per_bit(), 0.11, 1e-12);
}

TEST(TechTable, FortyFiveNanometreMatchesHorowitz) {
  // Horowitz, ISSCC 2014, 45 nm: 8b mult 0.2 pJ, 32b add 0.1 pJ, 32b FP mult 3.7 pJ.
  TechTable table = resolve_tech_table("45nm").table;
  EXPECT_DOUBLE_EQ(table.mult_pj(ir::DType::kInt8), 0.2);
  EXPECT_DOUBLE_EQ(table.mac_pj(ir::DType::kInt8, ir::DType::kInt32), 0.3);
  EXPECT_DOUBLE_EQ(table.mult_pj(ir::DType::kFp32), 3.7);
  // 8 KB SRAM, 64-bit access, 10 pJ.
  EXPECT_NEAR(table.sram_access_pj_per_bit(8, 64), 10.0 / 64.0, 1e-12);
}

TEST(TechTable, SmallerNodesSpendLessPerMac) {
  double previous = resolve_tech_table("65nm").table.mac_pj(ir::DType::kInt8, ir::DType::kInt32);
  for (const std::string node : {"45nm", "28nm", "16nm", "7nm"}) {
    double mac = resolve_tech_table(node).table.mac_pj(ir::DType::kInt8, ir::DType::kInt32);
    EXPECT_LT(mac, previous) << node;
    previous = mac;
  }
}

TEST(TechTable, SramEnergyGrowsWithSqrtOfCapacityBetweenPoints) {
  TechTable table = resolve_tech_table("45nm").table;
  // Halfway in sqrt(kib) between 8 and 32 KiB (sqrt 2.83 .. 5.66) is sqrt(kib) = 4.24, 18 KiB.
  const double mid_kib = std::pow((std::sqrt(8.0) + std::sqrt(32.0)) / 2.0, 2.0);
  EXPECT_NEAR(table.sram_access_pj_per_bit(mid_kib, 64), (10.0 + 20.0) / 2.0 / 64.0, 1e-12);
  EXPECT_GT(table.sram_access_pj_per_bit(24576, 64), table.sram_access_pj_per_bit(1024, 64));
}

TEST(TechTable, NarrowSramAccessPaysAWholeReferenceWord) {
  TechTable table = resolve_tech_table("28nm").table;
  EXPECT_DOUBLE_EQ(table.sram_access_pj_per_bit(32, 8), 8.0 * table.sram_access_pj_per_bit(32, 64));
  EXPECT_DOUBLE_EQ(table.sram_access_pj_per_bit(32, 2048), table.sram_access_pj_per_bit(32, 64));
}

TEST(TechTable, DramPresetIsPricedAsItsType) {
  TechTable table = resolve_tech_table("28nm").table;
  EXPECT_DOUBLE_EQ(table.dram_pj_per_bit("hbm2e_3200"), table.dram_pj_per_bit("hbm2e"));
}

TEST(TechTable, NodeWithoutTableUsesNearestWithNote) {
  ResolvedTech resolved = resolve_tech_table("22nm");
  EXPECT_EQ(resolved.table.node, "28nm");
  EXPECT_NE(resolved.note.find("22nm"), std::string::npos);
  EXPECT_EQ(resolve_tech_table("10nm").table.node, "7nm");
}

TEST(TechTable, UnknownKeyNamesLocationAndSuggestion) {
  std::string text = replace(embedded_yaml("28nm"), "register_pj_per_bit:", "registr_pj_per_bit:");
  std::string message = parse_error(text);
  EXPECT_NE(message.find("tech.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'register_pj_per_bit'"), std::string::npos) << message;
}

TEST(TechTable, MissingEntryIsNamed) {
  std::string message = parse_error(replace(embedded_yaml("28nm"), "  gddr6:", "  gddr7:"));
  EXPECT_NE(message.find("dram_pj_per_bit.gddr7"), std::string::npos) << message;
}

TEST(TechTable, NegativeEnergyIsRejectedAtItsLine) {
  std::string text = embedded_yaml("28nm");
  auto at = text.find("  int8: ");
  text.replace(at, text.find('\n', at) - at, "  int8: -1");
  std::string message = parse_error(text);
  EXPECT_NE(message.find("tech.yaml:"), std::string::npos) << message;
}

TEST(TechTable, OverridesReplaceEntriesAndRejectUnknownActions) {
  TechTable table = resolve_tech_table("28nm").table;
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

}  // namespace
}  // namespace polyarch::sim
