#include "sim/thermal/rc_solver.h"

#include <gtest/gtest.h>

#include "sim/thermal/block_model.h"

namespace polyarch::sim::thermal {
namespace {

ThermalNetwork three_blocks() {
  return build_block_network(
      parse_floorplan("a 0.004 0.004 0 0\nb 0.004 0.004 0.004 0\nc 0.008 0.002 0 0.004\n", "f"),
      PackageConfig{});
}

TEST(ThermalRcSolver, ConstantPowerConvergesToTheSteadyState) {
  const ThermalNetwork network = three_blocks();
  const std::vector<double> power = {10.0, 2.0, 5.0};
  const std::vector<double> steady = SteadySolver(network).rise_k(power);
  TransientSolver transient(network, 100.0);  // far beyond the slowest time constant
  std::vector<double> rise(network.node_count(), 0.0);
  for (int step = 0; step < 10; ++step) transient.step(rise, power);
  for (int i = 0; i < network.node_count(); ++i) {
    EXPECT_NEAR(rise[i], steady[i], 1e-6) << network.node_names[i];
  }
}

TEST(ThermalRcSolver, OneIntervalEqualsTwoHalfIntervals) {
  // The propagator is exact: stepping h once or h/2 twice gives the same state.
  const ThermalNetwork network = three_blocks();
  const std::vector<double> power = {10.0, 0.0, 3.0};
  TransientSolver whole(network, 0.002), half(network, 0.001);
  std::vector<double> one(network.node_count(), 1.0), two = one;
  whole.step(one, power);
  half.step(two, power);
  half.step(two, power);
  for (int i = 0; i < network.node_count(); ++i) EXPECT_NEAR(one[i], two[i], 1e-9);
}

}  // namespace
}  // namespace polyarch::sim::thermal
