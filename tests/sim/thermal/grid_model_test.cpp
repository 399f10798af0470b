#include "sim/thermal/grid_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/thermal/block_simulation.h"
#include "sim/thermal/grid_simulation.h"
#include "tests/sim/thermal/thermal_test_support.h"

namespace polyarch::sim::thermal {
namespace {

// One square block exactly as wide as the spreader and the sink: no package ring, so every
// cell column is the same vertical chain and the grid is uniform.
constexpr double kSide = 0.01;

PackageConfig chain_package() {
  PackageConfig package;
  package.spreader.side_m = kSide;
  package.sink.side_m = kSide;
  return package;
}

PowerTrace constant_trace(int blocks, double watts, int samples) {
  PowerTrace trace;
  trace.block_count = blocks;
  trace.watts.assign(static_cast<std::size_t>(blocks) * samples, watts);
  return trace;
}

TEST(ThermalGridModel, UniformSingleBlockSteadyStateIsPowerTimesTheLayerChainByHand) {
  const Floorplan die = parse_floorplan("die 0.01 0.01 0 0\n", "one.flp");
  const PackageConfig package = chain_package();
  const double area = kSide * kSide;
  const double r_total = 0.00015 / (130.0 * area) + 2.0e-5 / (4.0 * area) + 0.001 / (400.0 * area) +
                         0.0069 / (400.0 * area) + 0.1;
  const double watts = 25.0;
  const GridNetwork network = build_grid_network(die, package, {16, 16});
  EXPECT_EQ(network.ring.count, 0);
  const BlockThermalResult grid = simulate_grid_thermal(die, constant_trace(1, watts, 2), package,
                                                        InitialTemperature::kSteady, {16, 16});
  EXPECT_NEAR(grid.steady_k[0], 318.15 + watts * r_total, 1e-8);
  EXPECT_NEAR(grid.transient_k[1], grid.steady_k[0], 1e-8);
  const BlockThermalResult block = simulate_block_thermal(die, constant_trace(1, watts, 2), package,
                                                          InitialTemperature::kSteady);
  EXPECT_NEAR(grid.steady_k[0], block.steady_k[0], 1e-8);
}

TEST(ThermalGridModel, SingleBlockOnTheDefaultPackageMatchesHotSpotGridAndBlockModes) {
  // An 8 x 8 mm die at 30 W on HotSpot's default package. HotSpot 7 (commit f18831e, the
  // package of tests/data/thermal/grid_strip3/hotspot.config) prints 327.30 K in grid mode
  // (-model_type grid -grid_rows 32 -grid_cols 32) and 327.68 K in block mode: the block model
  // pushes all of the die's heat through half the die to the package ring, while the grid
  // spreads it from where it is generated, so the grid's centre is cooler.
  const Floorplan die = parse_floorplan("die 0.008 0.008 0 0\n", "one.flp");
  const PackageConfig package;
  const PowerTrace trace = constant_trace(1, 30.0, 1);
  const BlockThermalResult grid =
      simulate_grid_thermal(die, trace, package, InitialTemperature::kSteady, {32, 32});
  const BlockThermalResult block =
      simulate_block_thermal(die, trace, package, InitialTemperature::kSteady);
  EXPECT_NEAR(grid.steady_k[0], 327.30, 0.006);
  EXPECT_NEAR(block.steady_k[0], 327.68, 0.006);
  // HotSpot's steady start holds the die at the centre value everywhere and relaxes; starting
  // every cell at the steady state, a constant trace stays there.
  EXPECT_GT(std::fabs(grid.transient_k[0] - grid.steady_k[0]), 0.05);
  const BlockThermalResult exact =
      simulate_grid_thermal(die, trace, package, InitialTemperature::kSteadyEveryNode, {32, 32});
  EXPECT_NEAR(exact.transient_k[0], exact.steady_k[0], 1e-9);
}

TEST(ThermalGridModel, StepResponseFollowsTheRcTimeConstant) {
  // Thin, very conductive layers of negligible heat capacity: the convection R and C (times
  // HotSpot's capacitance factor) are the one dominant RC pair, as in the block-model test.
  PackageConfig package = chain_package();
  for (MaterialLayer* layer :
       {&package.die, &package.tim, static_cast<MaterialLayer*>(&package.spreader),
        static_cast<MaterialLayer*>(&package.sink)}) {
    layer->thickness_m = 1e-4;
    layer->conductivity = 1e4;
    layer->volumetric_heat_capacity = 1.0;
  }
  package.convection = {0.5, 20.0};
  package.sampling_interval_s = 0.5;
  const Floorplan die = parse_floorplan("die 0.01 0.01 0 0\n", "one.flp");
  const BlockThermalResult result = simulate_grid_thermal(die, constant_trace(1, 10.0, 8), package,
                                                          InitialTemperature::kAmbient, {8, 8});
  const double rise = result.steady_k[0] - package.ambient_k;
  const double tau =
      package.convection.r_k_per_w * kCapacitanceFactor * package.convection.c_j_per_k;
  for (int s = 0; s < 8; ++s) {
    const double t = (s + 1) * package.sampling_interval_s;
    EXPECT_NEAR(result.transient_k[s] - package.ambient_k, rise * (1.0 - std::exp(-t / tau)),
                1e-3 * rise)
        << "sample " << s;
  }
}

TEST(ThermalGridModel, SpreadsBlockPowerByOverlapAndProbesTheCentreCellsAsHotSpot) {
  // 12 x 4 mm on 64 x 64 cells: a 4 mm block covers 21.33 columns (HotSpot set_bgmap).
  const Floorplan plan = parse_floorplan(
      "a 0.004 0.004 0 0\nb 0.004 0.004 0.004 0\nc 0.004 0.004 0.008 0\n", "strip.flp");
  const GridNetwork network = build_grid_network(plan, PackageConfig{}, {64, 64});
  ASSERT_EQ(network.block_count(), 3);
  for (int b = 0; b < 3; ++b) {
    double total = 0.0;
    for (const CellShare& share : network.block_cells[b]) total += share.fraction;
    EXPECT_NEAR(total, 1.0, 1e-12) << b;
  }
  EXPECT_TRUE(network.fully_covered());
  // Block a spans columns 0..21 (22 cells, the last one a third covered) and all 64 rows: its
  // centre is the mean of rows 31, 32 and columns 10, 11 (xlate_temp_g2b GRID_CENTER).
  const std::array<int, 4> expected = {network.cell(32, 11), network.cell(31, 11),
                                       network.cell(32, 10), network.cell(31, 10)};
  EXPECT_EQ(network.block_probe_cells[0], expected);
  // HotSpot 7 joins north/south neighbours through rx and east/west ones through ry.
  const double cw = 0.012 / 64, ch = 0.004 / 64, t = 0.00015, k = 130.0;
  EXPECT_NEAR(network.layers[kGridSilicon].east_west_g, k * cw * t / ch, 1e-12);
  EXPECT_NEAR(network.layers[kGridSilicon].north_south_g, k * ch * t / cw, 1e-12);
  EXPECT_EQ(network.ring.count, 12);
}

TEST(ThermalGridModel, HotSpotStartPutsUncoveredCellsAtZeroKelvin) {
  const Floorplan plan =
      parse_floorplan("a 0.002 0.002 0 0\nb 0.002 0.002 0.002 0.002\n", "diagonal.flp");
  const GridNetwork network = build_grid_network(plan, PackageConfig{}, {4, 4});
  EXPECT_FALSE(network.fully_covered());
  std::array<std::vector<double>, kGridLayerCount> kelvin;
  for (auto& layer : kelvin) layer = {320.0, 330.0};
  const std::vector<double> ring(network.ring.count, 318.15);
  const std::vector<double> rise = network.hotspot_initial_rise(kelvin, ring, 318.15);
  EXPECT_NEAR(rise[network.node(kGridSilicon, network.cell(3, 0))], 320.0 - 318.15, 1e-12);
  EXPECT_NEAR(rise[network.node(kGridSink, network.cell(0, 3))], 330.0 - 318.15, 1e-12);
  EXPECT_NEAR(rise[network.node(kGridSpreader, network.cell(0, 0))], -318.15, 1e-12);
  EXPECT_NEAR(rise[network.cell_node_count()], 0.0, 1e-12);
}

TEST(ThermalGridModel, BadGridSizesAreBadInput) {
  const Floorplan die = parse_floorplan("die 0.01 0.01 0 0\n", "one.flp");
  for (GridSize size : {GridSize{0, 8}, GridSize{8, -1}, GridSize{256, 256}}) {
    const std::string message =
        test::bad_input_message([&] { build_grid_network(die, PackageConfig{}, size); });
    EXPECT_NE(message.find("cells"), std::string::npos) << message;
  }
}

TEST(ThermalGridModel, ConductanceKeepsHeatBalanced) {
  // G·θ summed over all nodes is the heat to ambient: Σ ambient_g·θ.
  const Floorplan plan = parse_floorplan("a 0.003 0.002 0 0\nb 0.001 0.002 0.003 0\n", "two.flp");
  const GridNetwork network = build_grid_network(plan, PackageConfig{}, {8, 8});
  std::vector<double> theta(network.node_count());
  for (int i = 0; i < network.node_count(); ++i) theta[i] = std::sin(0.37 * i) + 2.0;
  const std::vector<double> flow = apply_conductance(network, theta);
  double total = 0.0, to_ambient = 0.0;
  for (int i = 0; i < network.node_count(); ++i) {
    total += flow[i];
    to_ambient += network.ambient_g[i] * theta[i];
  }
  EXPECT_NEAR(total, to_ambient, 1e-9 * std::fabs(to_ambient));
}

}  // namespace
}  // namespace polyarch::sim::thermal
