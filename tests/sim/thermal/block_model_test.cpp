#include "sim/thermal/block_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/error.h"
#include "sim/thermal/block_simulation.h"
#include "sim/thermal/package_config.h"
#include "sim/thermal/rc_solver.h"
#include "tests/sim/thermal/thermal_test_support.h"

namespace polyarch::sim::thermal {
namespace {

// One square block exactly as wide as the spreader and the sink: every package ring has zero
// width, so the network is the vertical chain silicon - interface - spreader - sink - ambient.
constexpr double kSide = 0.01;

Floorplan one_block() { return parse_floorplan("die 0.01 0.01 0 0\n", "one.flp"); }

PackageConfig chain_package() {
  PackageConfig package;
  package.spreader.side_m = kSide;
  package.sink.side_m = kSide;
  return package;
}

PowerTrace constant_trace(double watts, int samples) {
  PowerTrace trace;
  trace.block_count = 1;
  trace.watts.assign(samples, watts);
  return trace;
}

TEST(ThermalBlockModel, SingleBlockSteadyStateIsAmbientPlusPowerTimesLayerResistances) {
  const PackageConfig package = chain_package();
  const double area = kSide * kSide;
  // R = t / (k·A) per layer; the convection resistance, spread over the sink's area, is all
  // under this block.
  const double r_total = 0.00015 / (130.0 * area) + 2.0e-5 / (4.0 * area) + 0.001 / (400.0 * area) +
                         0.0069 / (400.0 * area) + 0.1;
  const double watts = 25.0;
  const ThermalNetwork network = build_block_network(one_block(), package);
  EXPECT_EQ(network.node_count(), 4);
  const BlockThermalResult result = simulate_block_thermal(one_block(), constant_trace(watts, 1),
                                                           package, InitialTemperature::kSteady);
  EXPECT_NEAR(result.steady_k[0], 318.15 + watts * r_total, 1e-9);
  // Started at the steady state, constant power stays there.
  EXPECT_NEAR(result.transient_k[0], result.steady_k[0], 1e-9);
}

TEST(ThermalBlockModel, StepResponseFollowsTheRcTimeConstant) {
  // Thin, very conductive layers with negligible heat capacity: the convection R and C (times
  // HotSpot's capacitance factor) are the one dominant RC pair.
  PackageConfig package = chain_package();
  for (MaterialLayer* layer :
       {&package.die, &package.tim, static_cast<MaterialLayer*>(&package.spreader),
        static_cast<MaterialLayer*>(&package.sink)}) {
    *layer = {1e-4, 1e4, 1.0};
  }
  package.convection = {0.5, 100.0};
  const double r_total = 0.5 + 4 * 1e-4 / (1e4 * kSide * kSide);
  const double c_total = kCapacitanceFactor * 100.0;
  const double tau = r_total * c_total;
  package.sampling_interval_s = tau / 20.0;
  const double watts = 10.0;
  const int samples = 100;
  const BlockThermalResult result = simulate_block_thermal(
      one_block(), constant_trace(watts, samples), package, InitialTemperature::kAmbient);
  for (int s = 0; s < samples; ++s) {
    const double t = (s + 1) * package.sampling_interval_s;
    const double expected = package.ambient_k + watts * r_total * (1.0 - std::exp(-t / tau));
    EXPECT_NEAR(result.transient_k[s], expected, 1e-3 * watts * r_total) << "t = " << t;
  }
}

TEST(ThermalBlockModel, NetworkHasHotSpotsNodesAndASymmetricConductanceMatrix) {
  const Floorplan floorplan = load_floorplan(test::case_path("strip3", "floorplan.flp"));
  const ThermalNetwork network = build_block_network(floorplan, PackageConfig{});
  ASSERT_EQ(network.node_count(), 4 * 3 + 12);
  EXPECT_EQ(network.node_names[4], "iface_cache");
  EXPECT_EQ(network.node_names[23], "inode_11");
  const SquareMatrix& g = network.conductance_w_per_k;
  for (int i = 0; i < network.node_count(); ++i) {
    double row_sum = 0.0;
    for (int j = 0; j < network.node_count(); ++j) {
      EXPECT_DOUBLE_EQ(g.at(i, j), g.at(j, i));
      row_sum += g.at(i, j);
    }
    // What is left of a row is the node's conductance to ambient: only sink nodes have one.
    const bool sink_node = (i >= 9 && i < 12) || i >= 16;
    if (sink_node) {
      EXPECT_GT(row_sum, 0.0) << network.node_names[i];
    } else {
      EXPECT_NEAR(row_sum, 0.0, 1e-9 * g.at(i, i)) << network.node_names[i];
    }
    EXPECT_GT(network.capacitance_j_per_k[i], 0.0);
  }
}

TEST(ThermalBlockModel, EveryNodeMatchesHotSpotsSteadyState) {
  // HotSpot's steady file lists all 4n+12 nodes (2 decimals): a check of the whole network.
  for (const std::string& name : test::hotspot_cases()) {
    const Floorplan floorplan = load_floorplan(test::case_path(name, "floorplan.flp"));
    const PackageConfig package = load_package_config(test::case_path(name, "thermal.yaml"));
    const PowerTrace trace = load_power_trace(test::case_path(name, "power.ptrace"), floorplan);
    const ThermalNetwork network = build_block_network(floorplan, package);
    const std::vector<double> rise = SteadySolver(network).rise_k(trace.average_w());
    const auto hotspot = test::read_hotspot_steady(test::case_path(name, "hotspot.steady"));
    ASSERT_EQ(hotspot.size(), network.node_names.size()) << name;
    for (int i = 0; i < network.node_count(); ++i) {
      ASSERT_TRUE(hotspot.count(network.node_names[i])) << network.node_names[i];
      EXPECT_NEAR(package.ambient_k + rise[i], hotspot.at(network.node_names[i]), 0.011)
          << name << " node " << network.node_names[i];
    }
  }
}

TEST(ThermalBlockModel, FloorplanOriginDoesNotMatter) {
  // HotSpot moves a floorplan to the origin; only relative positions count.
  const Floorplan at_origin = parse_floorplan("a 0.002 0.001 0 0\nb 0.001 0.001 0.002 0\n", "o");
  const Floorplan shifted =
      parse_floorplan("a 0.002 0.001 0.005 0.003\nb 0.001 0.001 0.007 0.003\n", "s");
  const std::vector<double> power = {3.0, 1.0};
  const std::vector<double> rise_origin =
      SteadySolver(build_block_network(at_origin, PackageConfig{})).rise_k(power);
  const std::vector<double> rise_shifted =
      SteadySolver(build_block_network(shifted, PackageConfig{})).rise_k(power);
  ASSERT_EQ(rise_origin.size(), rise_shifted.size());
  for (std::size_t i = 0; i < rise_origin.size(); ++i) {
    EXPECT_NEAR(rise_origin[i], rise_shifted[i], 1e-9);
  }
}

TEST(ThermalBlockModel, ZeroWidthPackageRingsHaveNoNodes) {
  PackageConfig package;
  package.spreader.side_m = kSide;  // die as wide as the spreader; the sink is wider
  const ThermalNetwork network = build_block_network(one_block(), package);
  EXPECT_EQ(network.node_count(), 4 + 4);  // the sink's outer ring remains
  EXPECT_NO_THROW(SteadySolver{network});
}

TEST(ThermalBlockModel, FloorplanLargerThanTheSpreaderIsBadInput) {
  PackageConfig package;
  package.spreader.side_m = 0.005;
  try {
    build_block_network(one_block(), package);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(std::string(error.what()).find("one.flp"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("does not fit"), std::string::npos);
  }
}

}  // namespace
}  // namespace polyarch::sim::thermal
