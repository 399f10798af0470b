#include "sim/thermal/grid_modal_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "base/random_draw.h"
#include "sim/thermal/grid_simulation.h"
#include "tests/sim/thermal/grid_test_support.h"

namespace polyarch::sim::thermal {
namespace {

// Three blocks with a gap, one of them at ~1 kW/cm², on a coarse grid the reference integrator
// handles quickly.
Floorplan gapped_floorplan() {
  return parse_floorplan(
      "hot 0.002 0.002 0 0\nwide 0.004 0.002 0.002 0\ntall 0.002 0.003 0 0.002\n", "gap.flp");
}

PowerTrace random_trace(int blocks, int samples, unsigned seed) {
  std::mt19937 random(seed);
  auto watts = [&](auto& engine) { return polyarch::random_real(engine, 0.5, 8.0); };
  PowerTrace trace;
  trace.block_count = blocks;
  for (int i = 0; i < blocks * samples; ++i) trace.watts.push_back(watts(random));
  trace.watts[0] = 40.0;  // the hot block switches on hard in the first interval
  return trace;
}

// Largest |modal − reference| over blocks and samples, both started as HotSpot starts.
double largest_difference(const Floorplan& floorplan, InitialTemperature initial, unsigned seed) {
  const PackageConfig package;
  const GridSize size{12, 12};
  const int samples = 6;
  const PowerTrace trace = random_trace(floorplan.block_count(), samples, seed);
  const BlockThermalResult modal = simulate_grid_thermal(floorplan, trace, package, initial, size);

  const GridNetwork network = build_grid_network(floorplan, package, size);
  const EnvelopeCholesky conductance(network.node_count(), conductance_entries(network));
  const std::vector<double> steady = conductance.solve(network.node_power(trace.average_w()));
  std::array<std::vector<double>, kGridLayerCount> kelvin;
  std::vector<double> ring(network.ring.count, package.ambient_k);
  for (int layer = 0; layer < kGridLayerCount; ++layer) {
    for (int b = 0; b < network.block_count(); ++b) {
      kelvin[layer].push_back(package.ambient_k + (initial == InitialTemperature::kSteady
                                                       ? network.block_rise(steady, b, layer)
                                                       : 0.0));
    }
  }
  if (initial == InitialTemperature::kSteady) {
    for (int x = 0; x < network.ring.count; ++x) ring[x] += steady[network.cell_node_count() + x];
  }
  std::vector<double> rise = network.hotspot_initial_rise(kelvin, ring, package.ambient_k);
  const test::ReferenceGridIntegrator reference(network, package.sampling_interval_s, 40);
  double largest = 0.0;
  for (int s = 0; s < samples; ++s) {
    reference.step(rise, trace.sample(s));
    for (int b = 0; b < network.block_count(); ++b) {
      const double expected = package.ambient_k + network.block_rise(rise, b);
      largest =
          std::max(largest, std::fabs(modal.transient_k[s * network.block_count() + b] - expected));
    }
  }
  return largest;
}

TEST(ThermalGridModalModel, MatchesAFineImplicitIntegrationOfTheWholeGrid) {
  const unsigned seed = 7;
  const Floorplan floorplan = gapped_floorplan();
  EXPECT_LT(largest_difference(floorplan, InitialTemperature::kAmbient, seed), 0.05)
      << "seed " << seed;
  EXPECT_LT(largest_difference(floorplan, InitialTemperature::kSteady, seed), 0.05)
      << "seed " << seed;
}

TEST(ThermalGridModalModel, SteadyStatesAreExactAndStayPut) {
  const Floorplan floorplan = gapped_floorplan();
  const PackageConfig package;
  const GridNetwork network = build_grid_network(floorplan, package, {12, 12});
  const EnvelopeCholesky conductance(network.node_count(), conductance_entries(network));
  const GridModalModel model(network, conductance, package.sampling_interval_s);
  const std::vector<double> power = {3.0, 1.0, 2.0};
  const std::vector<double> steady = conductance.solve(network.node_power(power));
  std::vector<double> modal = model.coordinates(steady);
  std::vector<double> rise(3);
  for (int s = 0; s < 50; ++s) model.step(modal, power);
  model.block_rise(modal, rise);
  for (int b = 0; b < 3; ++b) EXPECT_NEAR(rise[b], network.block_rise(steady, b), 1e-9);
  // From ambient, a long run at constant power reaches the same state.
  modal.assign(model.mode_count(), 0.0);
  for (int s = 0; s < 40000; ++s) model.step(modal, power);  // ~16 slowest time constants
  model.block_rise(modal, rise);
  for (int b = 0; b < 3; ++b) EXPECT_NEAR(rise[b], network.block_rise(steady, b), 1e-3);
}

}  // namespace
}  // namespace polyarch::sim::thermal
