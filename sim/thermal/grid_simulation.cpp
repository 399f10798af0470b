#include "sim/thermal/grid_simulation.h"

#include <algorithm>
#include <cmath>

#include "sim/thermal/grid_modal_model.h"

namespace polyarch::sim::thermal {

std::vector<SymmetricEntry> conductance_entries(const GridNetwork& network) {
  std::vector<SymmetricEntry> entries;
  entries.reserve(network.node_count() + 3 * network.couplings.size());
  for (int node = 0; node < network.node_count(); ++node) {
    entries.push_back({node, node, network.ambient_g[node]});
  }
  for (const Coupling& c : network.couplings) {
    entries.push_back({c.a, c.a, c.g});
    entries.push_back({c.b, c.b, c.g});
    entries.push_back({std::max(c.a, c.b), std::min(c.a, c.b), -c.g});
  }
  return entries;
}

namespace {

// Krylov vectors of a start that is not a steady state: its difference d from the steady state
// carried through (G + σ·C)⁻¹·C a few times, for σ = 0 (the moments of its slow decay) and,
// when the start has holes, for σ = 1, 10 and 40 per interval as well (rational Krylov: the
// decay within the first intervals). HotSpot starts a grid from block-level temperatures, which
// are piecewise constant per block and 0 K where no block covers a cell (README.md).
std::vector<std::vector<double>> start_vectors(const GridNetwork& network,
                                               const EnvelopeCholesky& conductance,
                                               std::span<const double> start,
                                               std::span<const double> steady, bool start_has_holes,
                                               double interval_s) {
  std::vector<std::vector<double>> vectors;
  const int nodes = network.node_count();
  bool at_ambient = true, at_steady = true;
  for (int i = 0; i < nodes; ++i) {
    at_ambient = at_ambient && start[i] == 0.0;
    at_steady = at_steady && start[i] == steady[i];
  }
  // Both are sums of the steady responses already in the span.
  if (at_ambient || at_steady) return vectors;
  auto add_krylov = [&](const EnvelopeCholesky& solver, int count, bool solve_first) {
    std::vector<double> v(nodes);
    for (int i = 0; i < nodes; ++i) v[i] = start[i] - steady[i];
    for (int k = 0; k < count; ++k) {
      if (solve_first || k > 0) {
        for (int i = 0; i < nodes; ++i) v[i] *= network.capacitance_j_per_k[i];
        v = solver.solve(v);
      }
      double scale = 0.0;
      for (double value : v) scale = std::max(scale, std::fabs(value));
      if (!(scale > 0.0)) return;
      for (double& value : v) value /= scale;
      vectors.push_back(v);
    }
  };
  add_krylov(conductance, 4, false);
  if (!start_has_holes) return vectors;
  for (double per_interval : {1.0, 10.0, 40.0}) {
    std::vector<SymmetricEntry> entries = conductance_entries(network);
    for (int i = 0; i < nodes; ++i) {
      entries.push_back({i, i, per_interval / interval_s * network.capacitance_j_per_k[i]});
    }
    add_krylov(EnvelopeCholesky(nodes, entries), 2, true);
  }
  return vectors;
}

// HotSpot's start: the block-level temperatures of every layer (the steady state's centre
// cells, or the ambient) spread back over the grid, the ring nodes at their own.
std::vector<double> hotspot_start(const GridNetwork& network, std::span<const double> steady_rise,
                                  InitialTemperature initial, const PackageConfig& package) {
  const bool from_steady = initial == InitialTemperature::kSteady;
  std::array<std::vector<double>, kGridLayerCount> block_kelvin;
  std::vector<double> ring_kelvin(network.ring.count, package.ambient_k);
  for (int layer = 0; layer < kGridLayerCount; ++layer) {
    for (int b = 0; b < network.block_count(); ++b) {
      block_kelvin[layer].push_back(
          package.ambient_k + (from_steady ? network.block_rise(steady_rise, b, layer) : 0.0));
    }
  }
  if (from_steady) {
    for (int x = 0; x < network.ring.count; ++x) {
      ring_kelvin[x] += steady_rise[network.cell_node_count() + x];
    }
  }
  return network.hotspot_initial_rise(block_kelvin, ring_kelvin, package.ambient_k);
}

}  // namespace

BlockThermalResult simulate_grid_thermal(const Floorplan& floorplan, const PowerTrace& trace,
                                         const PackageConfig& package, InitialTemperature initial,
                                         GridSize size) {
  const GridNetwork network = build_grid_network(floorplan, package, size);
  const std::vector<SymmetricEntry> entries = conductance_entries(network);
  const EnvelopeCholesky conductance(network.node_count(), entries);
  const int blocks = network.block_count();
  BlockThermalResult result;
  result.block_count = blocks;

  const std::vector<double> average = trace.average_w();
  const std::vector<double> steady_rise = conductance.solve(network.node_power(average));
  for (int b = 0; b < blocks; ++b) {
    result.steady_k.push_back(package.ambient_k + network.block_rise(steady_rise, b));
  }

  const std::vector<double> start = initial == InitialTemperature::kSteadyEveryNode
                                        ? steady_rise
                                        : hotspot_start(network, steady_rise, initial, package);
  const GridModalModel model(network, conductance, package.sampling_interval_s,
                             start_vectors(network, conductance, start, steady_rise,
                                           !network.fully_covered(), package.sampling_interval_s));
  std::vector<double> modal = model.coordinates(start);
  const int samples = trace.sample_count();
  result.transient_k.resize(static_cast<std::size_t>(samples) * blocks);
  std::vector<double> rise(blocks);
  for (int s = 0; s < samples; ++s) {
    model.step(modal, trace.sample(s));
    model.block_rise(modal, rise);
    for (int b = 0; b < blocks; ++b) {
      result.transient_k[static_cast<std::size_t>(s) * blocks + b] = package.ambient_k + rise[b];
    }
  }
  return result;
}

}  // namespace polyarch::sim::thermal
