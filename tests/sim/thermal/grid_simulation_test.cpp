// polyarch's grid mode against HotSpot 7 grid-model outputs kept in tests/data/thermal/grid_*
// (64 x 64, PROVENANCE.md): steady state within 1 K and the transient within 2 K of HotSpot for
// every block and sample, as required; the tighter guards below hold today.
#include "sim/thermal/grid_simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/sim/thermal/thermal_test_support.h"

namespace polyarch::sim::thermal {
namespace {

const std::vector<std::string>& grid_cases() {
  static const std::vector<std::string> cases = {"grid_strip3", "grid_hot6",  "grid_tall5",
                                                 "grid_skew8",  "grid_gap12", "grid_many100"};
  return cases;
}

struct Case {
  Floorplan floorplan;
  PowerTrace trace;
  PackageConfig package;
};

Case load_case(const std::string& name) {
  Case loaded{load_floorplan(test::case_path(name, "floorplan.flp")), {}, {}};
  loaded.trace = load_power_trace(test::case_path(name, "power.ptrace"), loaded.floorplan);
  loaded.package = load_package_config(test::case_path(name, "thermal.yaml"));
  return loaded;
}

double transient_difference(const Case& loaded, const BlockThermalResult& result,
                            const test::HotSpotTrace& hotspot) {
  EXPECT_EQ(static_cast<int>(hotspot.rows.size()), loaded.trace.sample_count());
  double largest = 0.0;
  for (std::size_t s = 0; s < hotspot.rows.size(); ++s) {
    for (std::size_t c = 0; c < hotspot.names.size(); ++c) {
      const int block = loaded.floorplan.index_of(hotspot.names[c]);
      const double ours = result.transient_k[s * result.block_count + block];
      largest = std::max(largest, std::fabs(ours - hotspot.rows[s][c]));
    }
  }
  return largest;
}

TEST(ThermalGridSimulation, MatchesHotSpotSteadyAndTransientOnEveryCase) {
  for (const std::string& name : grid_cases()) {
    const Case loaded = load_case(name);
    const auto steady = test::read_hotspot_steady(test::case_path(name, "hotspot.steady"));
    for (InitialTemperature initial : {InitialTemperature::kSteady, InitialTemperature::kAmbient}) {
      const BlockThermalResult result =
          simulate_grid_thermal(loaded.floorplan, loaded.trace, loaded.package, initial);
      double steady_difference = 0.0;
      for (int b = 0; b < result.block_count; ++b) {
        steady_difference =
            std::max(steady_difference,
                     std::fabs(result.steady_k[b] - steady.at(loaded.floorplan.blocks[b].name)));
      }
      const bool from_steady = initial == InitialTemperature::kSteady;
      const double transient = transient_difference(
          loaded, result,
          test::read_hotspot_trace(test::case_path(
              name, from_steady ? "hotspot_steady.ttrace" : "hotspot_ambient.ttrace")));
      EXPECT_LT(steady_difference, 1.0) << name;
      EXPECT_LT(transient, 2.0) << name;
      // Regression guards at today's agreement (largest: steady 0.018 K on grid_tall5,
      // transient 0.101 K on grid_gap12 from ambient, whose HotSpot start has 0 K gap cells).
      // HotSpot prints 2 decimals and stops its Gauss–Seidel and RK4 at 1e-6 K per step.
      EXPECT_LT(steady_difference, 0.03) << name;
      EXPECT_LT(transient, 0.15) << name << (from_steady ? " from steady" : " from ambient");
    }
  }
}

TEST(ThermalGridSimulation, GridRefinementConverges) {
  // A square 8 x 8 mm die (square cells at every resolution) with a hot corner block.
  const Floorplan plan = parse_floorplan(
      "hot 0.002 0.002 0 0\nrest_s 0.006 0.002 0.002 0\nrest_n 0.008 0.006 0 0.002\n", "sq.flp");
  PowerTrace trace;
  trace.block_count = 3;
  trace.watts = {20.0, 5.0, 10.0, 2.0, 8.0, 12.0};
  std::vector<std::vector<double>> steady;
  for (int cells : {8, 16, 32, 64}) {
    steady.push_back(simulate_grid_thermal(plan, trace, PackageConfig{},
                                           InitialTemperature::kSteady, {cells, cells})
                         .steady_k);
  }
  auto change = [&](int finer) {
    double largest = 0.0;
    for (int b = 0; b < 3; ++b) {
      largest = std::max(largest, std::fabs(steady[finer][b] - steady[finer - 1][b]));
    }
    return largest;
  };
  EXPECT_LT(change(2), change(1));
  EXPECT_LT(change(3), change(2));
  EXPECT_LT(change(3), 0.5);
}

TEST(ThermalGridSimulation, AmbientStartWithoutGapsBeginsAtAmbientAndWarms) {
  const Case loaded = load_case("grid_strip3");
  const BlockThermalResult result = simulate_grid_thermal(
      loaded.floorplan, loaded.trace, loaded.package, InitialTemperature::kAmbient, {32, 32});
  ASSERT_EQ(result.transient_k.size(), static_cast<std::size_t>(3 * 40));
  for (int b = 0; b < 3; ++b) {
    EXPECT_GT(result.transient_k[b], loaded.package.ambient_k);
    EXPECT_LT(result.transient_k[b], result.steady_k[b] + 5.0);
  }
}

}  // namespace
}  // namespace polyarch::sim::thermal
