// The chip's background power: every DRAM channel's standby and refresh, and the leakage of the
// die area no unit's model prices. Expected values are worked by hand from the device currents
// and the table's leakage density, not through the functions under test.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "archs/soc/soc_config.h"
#include "base/error.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"
#include "sim/energy/chip_background.h"
#include "tests/base/error_capture.h"

namespace polyarch::sim {
namespace {

// A 28 nm SoC of one small systolic unit on eight HBM2 channels, optionally with a stated die.
std::string arch_text(const std::string& die_line) {
  return "name: t\nclock_ghz: 1.0\ntechnology: 28nm\n" + die_line +
         "memory:\n  dram: {kind: hbm2, bandwidth_gbps: 600, channels: 8}\n"
         "units:\n  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n";
}

archs::SocConfig soc_from(const std::string& text) {
  return archs::parse_soc_config(parse_config_text(text, "arch.yaml"));
}

// One HBM2 channel (DRAMsim3 HBM2_8Gb_x128.ini): VDD 1.2 V, IDD3N 55 mA, IDD5AB 250 mA,
// tRFC 260 of tREFI 3900 cycles: 1.2 x (55 + 195 x 260 / 3900) mA = 81.6 mW.
constexpr double kHbm2ChannelW = 1.2 * (55.0 + 195.0 * 260.0 / 3900.0) * 1e-3;

TEST(ChipBackground, DramDrawsStandbyAndRefreshOnEveryChannelForTheWholeRun) {
  const archs::SocConfig soc = soc_from(arch_text(""));
  const EnergyByAction energy = chip_background_energy(soc.physics(), 0.0, 2.0);
  EXPECT_NEAR(energy.at("dram_background"), 8 * kHbm2ChannelW * 2.0, 1e-12);
  EXPECT_FALSE(energy.contains("uncore_leakage"));  // no die stated: the units are the die
}

TEST(ChipBackground, UncoreLeaksAtTheTableDensityOverTheAreaTheUnitsDoNotPrice) {
  const archs::SocConfig soc = soc_from(arch_text("die_area_mm2: 10\n"));
  const double units_mm2 = *soc.units[0]->area_mm2(soc.tech.table);
  ASSERT_LT(units_mm2, 10.0);
  // 28 nm: 15.5 mW/mm^2 at the reference temperature.
  const EnergyByAction energy = chip_background_energy(soc.physics(), units_mm2, 0.5);
  EXPECT_NEAR(energy.at("uncore_leakage"), (10.0 - units_mm2) * 15.5e-3 * 0.5, 1e-12);
}

TEST(ChipBackground, RunSummaryIsItsUnitsPlusTheChipsBackground) {
  const archs::SocConfig soc = soc_from(arch_text("die_area_mm2: 10\n"));
  const RunResult result = driver::simulate_workload(
      soc, frontend::layer_list_from_config(
               parse_config_text("layers:\n  - {name: g, op: gemm, m: 64, n: 64, k: 64}\n",
                                 "w.yaml"),
               "g"));
  double units = 0.0;
  for (const UnitResult& unit : result.units) units += *unit.energy_j;
  const double latency = result.summary.latency_s;
  const double dram_background = 8 * kHbm2ChannelW * latency;
  ASSERT_TRUE(result.summary.energy_j);
  EXPECT_NEAR(result.summary.energy_by_action.at("dram_background"), dram_background,
              1e-9 * dram_background);
  // The uncore leaks at the reference temperature, however warm the units run.
  const double uncore = (10.0 - *result.units[0].area_mm2) * 15.5e-3 * latency;
  EXPECT_NEAR(result.summary.energy_by_action.at("uncore_leakage"), uncore, 1e-9 * uncore);
  EXPECT_NEAR(*result.summary.energy_j, units + dram_background + uncore,
              1e-9 * *result.summary.energy_j);
  EXPECT_NEAR(*result.summary.avg_power_w, *result.summary.energy_j / latency,
              1e-9 * *result.summary.avg_power_w);
}

TEST(ChipBackground, DieNoLargerThanTheUnitsIsRefusedAtItsLine) {
  const std::optional<Error> error =
      testing::capture_error([] { soc_from(arch_text("die_area_mm2: 0.000001\n")); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_EQ(error->where().file, "arch.yaml");
  EXPECT_EQ(error->where().line, 4);
  EXPECT_NE(error->message().find("die_area_mm2"), std::string::npos) << error->message();
}

}  // namespace
}  // namespace polyarch::sim
