#include "sim/thermal/block_simulation.h"

#include "sim/thermal/block_model.h"
#include "sim/thermal/rc_solver.h"

namespace polyarch::sim::thermal {

BlockThermalResult simulate_block_thermal(const Floorplan& floorplan, const PowerTrace& trace,
                                          const PackageConfig& package,
                                          InitialTemperature initial) {
  const ThermalNetwork network = build_block_network(floorplan, package);
  const int blocks = network.block_count;
  BlockThermalResult result;
  result.block_count = blocks;

  const std::vector<double> steady_rise = SteadySolver(network).rise_k(trace.average_w());
  for (int b = 0; b < blocks; ++b) result.steady_k.push_back(package.ambient_k + steady_rise[b]);

  TransientSolver transient(network, package.sampling_interval_s);
  std::vector<double> rise = initial != InitialTemperature::kAmbient
                                 ? steady_rise
                                 : std::vector<double>(network.node_count(), 0.0);
  const int samples = trace.sample_count();
  result.transient_k.reserve(static_cast<std::size_t>(samples) * blocks);
  for (int s = 0; s < samples; ++s) {
    transient.step(rise, trace.sample(s));
    for (int b = 0; b < blocks; ++b) result.transient_k.push_back(package.ambient_k + rise[b]);
  }
  return result;
}

}  // namespace polyarch::sim::thermal
