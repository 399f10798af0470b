// The crossbar's cells as the technology tables price them: every shipped node prices every
// device, by the cited physics, and the `crossbar_cell:` section keeps its errors (missing and
// negative entries, misspelt devices in an arch's overrides) now that the crossbar declares it.
#include "archs/crossbar/cell_tech.h"

#include <gtest/gtest.h>

#include <string>

#include "archs/registry.h"
#include "tests/support/tech_text.h"

namespace polyarch::archs::crossbar {
namespace {

using sim::TechTable;
using test_support::embedded_tech_yaml;
using test_support::replaced;
using test_support::tech_parse_error;

TEST(CrossbarCellTech, EveryShippedNodePricesEveryCrossbarCellDevice) {
  const TechTable reference = resolve_tech("28nm").table;
  for (const std::string node : {"65nm", "45nm", "28nm", "16nm", "7nm"}) {
    const TechTable table = resolve_tech(node).table;
    for (const std::string& device : cell_devices()) {
      EXPECT_GT(cell_read_fj(table, device), 0.0) << node << " " << device;
      EXPECT_GT(cell_write_pj(table, device), 0.0) << node << " " << device;
    }
    // A resistive cell's V^2 G t does not follow the CMOS node: the same entry everywhere.
    for (const std::string device : {"rram", "pcm"}) {
      EXPECT_DOUBLE_EQ(cell_read_fj(table, device), cell_read_fj(reference, device));
      EXPECT_DOUBLE_EQ(cell_write_pj(table, device), cell_write_pj(reference, device));
    }
    // An SRAM-CIM array is written as an SRAM: the 8 KiB point of the table's own SRAM curve.
    EXPECT_NEAR(cell_write_pj(table, "sram"), table.sram_access_pj_per_bit(8, 64), 1e-6) << node;
  }
  // ISAAC, Table II: 0.3 mW per 128 x 128 crossbar over a 100 ns cycle.
  EXPECT_NEAR(cell_read_fj(reference, "rram"), 0.3e-3 * 100e-9 / (128 * 128) * 1e15, 0.01);
}

TEST(CrossbarCellTech, SramCellEnergyFallsWithTheNodeAsLogicDoes) {
  double previous = 1e9;
  for (const std::string node : {"65nm", "45nm", "28nm", "16nm", "7nm"}) {
    const TechTable table = resolve_tech(node).table;
    const double read = cell_read_fj(table, "sram");
    EXPECT_LT(read, previous) << node;
    previous = read;
    // Both follow the node's logic energy factor [SB] from the 45 nm entries.
    const TechTable base = resolve_tech("45nm").table;
    EXPECT_NEAR(read / cell_read_fj(base, "sram"),
                table.mult_pj(ir::DType::kInt8) / base.mult_pj(ir::DType::kInt8), 1e-3)
        << node;
  }
  // Valavi et al. (JSSC 2019), 65 nm: 1.2 fF x (1.0 V)^2 x activity 0.5.
  EXPECT_NEAR(cell_read_fj(resolve_tech("65nm").table, "sram"), 0.6, 1e-12);
}

TEST(CrossbarCellTech, MissingCrossbarCellEntryNamesTheFileAndKey) {
  const std::string text = replaced(embedded_tech_yaml("28nm"), "    write_pj: 15.0\n", "");
  const std::string message = tech_parse_error(text);
  EXPECT_NE(message.find("tech.yaml"), std::string::npos) << message;
  EXPECT_NE(message.find("crossbar_cell.pcm.write_pj"), std::string::npos) << message;
}

TEST(CrossbarCellTech, NegativeCrossbarCellEntryNamesTheLineAndKey) {
  const std::string text = replaced(embedded_tech_yaml("28nm"), "read_fj: 1.83", "read_fj: -1.83");
  const std::string message = tech_parse_error(text);
  EXPECT_NE(message.find("tech.yaml:"), std::string::npos) << message;
  EXPECT_NE(message.find("crossbar_cell.rram.read_fj"), std::string::npos) << message;
  EXPECT_NE(message.find("-1.83"), std::string::npos) << message;
}

TEST(CrossbarCellTech, CrossbarCellOverridesReplaceOneDeviceAndRejectUnknownDevices) {
  TechTable table = resolve_tech("28nm").table;
  const double rram_read = cell_read_fj(table, "rram");
  apply_tech_overrides(table,
                       parse_config_text("crossbar_cell: {pcm: {read_fj: 2.5}}", "arch.yaml"));
  EXPECT_DOUBLE_EQ(cell_read_fj(table, "pcm"), 2.5);
  EXPECT_DOUBLE_EQ(cell_read_fj(table, "rram"), rram_read);
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

}  // namespace
}  // namespace polyarch::archs::crossbar
