#include "sim/energy/power_trace.h"

#include <gtest/gtest.h>

#include <numeric>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/workload_loader.h"
#include "driver/run.h"
#include "sim/thermal/thermal_run.h"

namespace polyarch::sim {
namespace {

// One unit at 1 GHz: op `a` runs cycles [0, 2000) with 4 uJ dynamic and 1 uJ leakage, op `b`
// [3000, 4000) with 1 uJ; the unit leaks 5 uJ over the 5 us run.
sim::RunResult two_ops() {
  sim::RunResult result;
  result.summary.latency_s = 5e-6;
  result.summary.energy_j = 11e-6;
  sim::UnitResult unit;
  unit.name = "u";
  unit.energy_by_action = {{"leakage", 5e-6}, {"mac", 5e-6}};
  unit.area_mm2 = 4.0;
  result.units.push_back(unit);
  sim::OpResult a;
  a.name = "a";
  a.unit = "u";
  a.unit_clock_ghz = 1.0;
  a.start_cycle = 0;
  a.end_cycle = 2000;
  a.energy_j = 5e-6;
  a.energy_by_action = {{"leakage", 1e-6}, {"mac", 4e-6}};
  sim::OpResult b = a;
  b.name = "b";
  b.start_cycle = 3000;
  b.end_cycle = 4000;
  b.energy_j = 1e-6;
  b.energy_by_action = {{"mac", 1e-6}};
  result.ops = {a, b};
  return result;
}

TEST(PowerTrace, SpreadsDynamicEnergyOverTheOpsWindowsOnTopOfLeakage) {
  const auto trace = build_power_trace(two_ops(), 1e-6);
  ASSERT_TRUE(trace);
  ASSERT_EQ(trace->watts.size(), 1u);
  const std::vector<double>& watts = trace->watts[0];
  ASSERT_EQ(watts.size(), 5u);
  // Leakage 1 W everywhere; `a` adds 2 W in windows 0-1, `b` 1 W in window 3.
  EXPECT_NEAR(watts[0], 3.0, 1e-9);
  EXPECT_NEAR(watts[1], 3.0, 1e-9);
  EXPECT_NEAR(watts[2], 1.0, 1e-9);
  EXPECT_NEAR(watts[3], 2.0, 1e-9);
  EXPECT_NEAR(watts[4], 1.0, 1e-9);
}

TEST(PowerTrace, LongRunsGetWiderWindowsAndNoEnergyMeansNoTrace) {
  const auto trace = build_power_trace(two_ops(), 1e-12);
  ASSERT_TRUE(trace);
  EXPECT_EQ(static_cast<int64_t>(trace->watts[0].size()), kMaxPowerWindows);
  EXPECT_DOUBLE_EQ(trace->window_s, 5e-6 / static_cast<double>(kMaxPowerWindows));
  sim::RunResult without = two_ops();
  without.summary.energy_j.reset();
  EXPECT_FALSE(build_power_trace(without, 1e-6));
}

TEST(PowerTrace, AWholeNetworksTraceHoldsItsEnergyAndHeatsTheDie) {
  const archs::SocConfig soc =
      archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/tpu_v1_like.yaml");
  const ir::Graph graph = frontend::load_workload(std::string(POLYARCH_SOURCE_DIR) +
                                                  "/workloads/resnet50_layers.yaml");
  const sim::RunResult result = driver::simulate_workload(soc, graph, 1e-5);
  ASSERT_TRUE(result.power);
  double energy = 0;
  for (const auto& block : result.power->watts) {
    energy += std::accumulate(block.begin(), block.end(), 0.0) * result.power->window_s;
  }
  // The trace holds the units' energy: the chip's background (the DDR3 channels' standby and
  // refresh) heats no block. The last window is counted whole, so its leakage slightly exceeds
  // the run's.
  const double units_j =
      *result.summary.energy_j - result.summary.energy_by_action.at("dram_background");
  EXPECT_GT(result.summary.energy_by_action.at("dram_background"), 0.0);
  EXPECT_NEAR(energy, units_j, 1e-3 * units_j);
  ASSERT_TRUE(result.thermal);
  ASSERT_TRUE(result.summary.peak_temp_c);
  const double ambient_c = 318.15 - 273.15;  // HotSpot's default ambient
  EXPECT_GT(*result.summary.peak_temp_c, ambient_c);
  EXPECT_LT(*result.summary.peak_temp_c, ambient_c + 50);
}

TEST(ThermalRun, MorePowerRunsHotterAndBlocksFollowUnitAreas) {
  sim::RunResult result = two_ops();
  result.power = build_power_trace(result, 1e-6);
  const auto floorplan = floorplan_from_units(result);
  ASSERT_TRUE(floorplan);
  EXPECT_NEAR(floorplan->blocks[0].area_m2(), 4e-6, 1e-12);
  archs::SocConfig soc;
  const auto cool = run_thermal(soc.physics(), result);
  for (auto& watts : result.power->watts[0]) watts *= 10;
  const auto hot = run_thermal(soc.physics(), result);
  ASSERT_TRUE(cool && hot);
  EXPECT_GT(hot->steady_c[0], cool->steady_c[0] + 1.0);
}

}  // namespace
}  // namespace polyarch::sim
