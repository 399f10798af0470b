// sim/thermal/thermal_run: the arch file's `thermal:` section picks HotSpot's block or grid model.
#include "sim/thermal/thermal_run.h"

#include <gtest/gtest.h>

#include "archs/soc/soc_config.h"
#include "sim/thermal/block_simulation.h"
#include "sim/thermal/grid_simulation.h"

namespace polyarch::sim {
namespace {

// Two units of 4 and 12 mm² with a three-window power trace of 1 ms windows.
sim::RunResult two_units() {
  sim::RunResult result;
  for (const auto& [name, area_mm2] : {std::pair{"mxu", 4.0}, std::pair{"vpu", 12.0}}) {
    sim::UnitResult unit;
    unit.name = name;
    unit.area_mm2 = area_mm2;
    result.units.push_back(unit);
  }
  sim::PowerTrace power;
  power.window_s = 1e-3;
  power.blocks = {"mxu", "vpu"};
  power.watts = {{20.0, 5.0, 30.0}, {4.0, 6.0, 2.0}};
  result.power = power;
  return result;
}

TEST(ThermalRunModel, GridModelInTheArchThermalSectionRunsHotSpotsGridModel) {
  const sim::RunResult result = two_units();
  archs::SocConfig soc;
  sim::thermal::PackageConfig package;
  package.model = {sim::thermal::ThermalModelKind::kGrid, 16, 24};
  soc.thermal = package;
  const auto grid = run_thermal(soc.physics(), result);
  soc.thermal->model.kind = sim::thermal::ThermalModelKind::kBlock;
  const auto block = run_thermal(soc.physics(), result);
  ASSERT_TRUE(grid && block);

  // The same run by hand on the grid: floorplan from unit areas, window-sized intervals, every
  // cell starting at the steady state (not HotSpot's block-level start).
  sim::thermal::PowerTrace trace;
  trace.block_count = 2;
  trace.watts = {20.0, 4.0, 5.0, 6.0, 30.0, 2.0};
  package.sampling_interval_s = 1e-3;
  const sim::thermal::BlockThermalResult expected = sim::thermal::simulate_grid_thermal(
      *floorplan_from_units(result), trace, package,
      sim::thermal::InitialTemperature::kSteadyEveryNode, {16, 24});
  for (int b = 0; b < 2; ++b) {
    EXPECT_NEAR(grid->steady_c[b], expected.steady_k[b] - 273.15, 1e-9);
    for (int w = 0; w < 3; ++w) {
      EXPECT_NEAR(grid->celsius[b][w], expected.transient_k[w * 2 + b] - 273.15, 1e-9);
    }
    // The two models differ (the grid spreads heat within a block), but not by much.
    EXPECT_NE(grid->steady_c[b], block->steady_c[b]);
    EXPECT_NEAR(grid->steady_c[b], block->steady_c[b], 5.0);
  }
}

}  // namespace
}  // namespace polyarch::sim
