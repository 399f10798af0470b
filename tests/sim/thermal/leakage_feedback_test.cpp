#include "sim/thermal/leakage_feedback.h"

#include <gtest/gtest.h>

#include <cmath>

#include "archs/soc/soc_config.h"
#include "sim/energy/power_trace.h"
#include "sim/thermal/thermal_run.h"

namespace polyarch::sim {
namespace {

archs::SocConfig tpu() {
  return archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/tpu_v1_like.yaml");
}

// One 4 mm^2 unit at 1 GHz running a 5 us op with `dynamic_j` of work, leaking `leakage_w` at the
// reference temperature (the unit is named as tpu_v1_like's unit is irrelevant: the floorplan
// comes from the result's unit areas).
sim::RunResult one_op(double dynamic_j, double leakage_w) {
  constexpr double kLatencyS = 5e-6;
  sim::RunResult result;
  result.summary.latency_s = kLatencyS;
  sim::UnitResult unit;
  unit.name = "u";
  unit.area_mm2 = 4.0;
  unit.energy_by_action = {{"leakage", leakage_w * kLatencyS}, {"mac", dynamic_j}};
  unit.energy_j = leakage_w * kLatencyS + dynamic_j;
  result.units.push_back(unit);
  sim::OpResult op;
  op.name = "a";
  op.unit = "u";
  op.unit_clock_ghz = 1.0;
  op.end_cycle = 5000;
  op.energy_by_action = unit.energy_by_action;
  op.energy_j = unit.energy_j;
  result.ops.push_back(op);
  result.summary.energy_j = unit.energy_j;
  result.power = build_power_trace(result, 1e-6);
  return result;
}

TEST(LeakageFeedback, SteadyStateSolvesTheLeakageFixedPointOfOneBlock) {
  const archs::SocConfig soc = tpu();
  const sim::TechTable& tech = soc.tech.table;
  sim::RunResult result = one_op(6e-6, 1.0);  // 1.2 W dynamic + 1 W leakage at 25 C
  result.thermal = run_thermal(soc.physics(), result);
  ASSERT_TRUE(result.thermal);
  const double ambient_c = 318.15 - 273.15;
  // The package's whole resistance from the reference-temperature run: T = Ta + R P.
  const double r_k_per_w = (result.thermal->steady_c[0] - ambient_c) / 2.2;
  apply_leakage_feedback(soc.physics(), result);
  ASSERT_TRUE(result.thermal->leakage);
  EXPECT_TRUE(result.thermal->leakage->converged);
  // Independently: bisect T = Ta + R (1.2 + 1.0 f(T)) between ambient and 100 K above it,
  // which brackets the stable root (the exponential makes a second, unstable one far above).
  double low = ambient_c;
  double high = ambient_c + 100.0;
  for (int step = 0; step < 100; ++step) {
    const double mid = 0.5 * (low + high);
    const double residual = ambient_c + r_k_per_w * (1.2 + tech.leakage_temperature_factor(mid)) - mid;
    (residual > 0 ? low : high) = mid;
  }
  EXPECT_NEAR(result.thermal->steady_c[0], low, 0.05);
  // Leakage at 45 C and above is more than at the 25 C reference, and the totals follow it.
  const double factor = result.thermal->leakage->mean_factor[0];
  EXPECT_GT(factor, tech.leakage_temperature_factor(ambient_c));
  EXPECT_NEAR(result.units[0].energy_by_action.at("leakage"), 5e-6 * factor, 1e-9);
  EXPECT_NEAR(*result.summary.energy_j, 6e-6 + 5e-6 * factor, 1e-9);
  EXPECT_NEAR(*result.ops[0].energy_j, *result.summary.energy_j, 1e-12);
}

TEST(LeakageFeedback, EveryWindowLeaksAtItsOwnTemperature) {
  const archs::SocConfig soc = tpu();
  sim::RunResult result = one_op(6e-6, 1.0);
  result.thermal = run_thermal(soc.physics(), result);
  apply_leakage_feedback(soc.physics(), result);
  const std::vector<double>& watts = result.power->watts[0];
  for (std::size_t window = 0; window < watts.size(); ++window) {
    const double celsius = result.thermal->celsius[0][window];
    EXPECT_NEAR(watts[window], 1.2 + soc.tech.table.leakage_temperature_factor(celsius), 1e-3);
  }
}

TEST(LeakageFeedback, RunawayStopsWithANoteInsteadOfDiverging) {
  const archs::SocConfig soc = tpu();
  sim::RunResult result = one_op(6e-6, 400.0);  // 400 W of leakage on 4 mm^2
  result.thermal = run_thermal(soc.physics(), result);
  apply_leakage_feedback(soc.physics(), result);
  ASSERT_TRUE(result.thermal->leakage);
  EXPECT_TRUE(result.thermal->leakage->runaway);
  EXPECT_FALSE(result.thermal->leakage->converged);
  ASSERT_FALSE(result.summary.energy_notes.empty());
  EXPECT_NE(result.summary.energy_notes.back().find("runaway"), std::string::npos);
  EXPECT_TRUE(std::isfinite(*result.summary.energy_j));
}

TEST(LeakageFeedback, WithoutAThermalTraceNothingChanges) {
  const archs::SocConfig soc = tpu();
  sim::RunResult result = one_op(6e-6, 1.0);
  const double before = *result.summary.energy_j;
  apply_leakage_feedback(soc.physics(), result);
  EXPECT_FALSE(result.thermal);
  EXPECT_DOUBLE_EQ(*result.summary.energy_j, before);
}

}  // namespace
}  // namespace polyarch::sim
