#pragma once
// A slow, independent integrator of a grid network for the grid-mode tests: backward Euler with
// Richardson extrapolation (second order, L-stable steps) over `substeps` steps per interval,
// on the whole network. It checks the reduced modal model, never replaces it.
#include <span>
#include <vector>

#include "sim/thermal/envelope_cholesky.h"
#include "sim/thermal/grid_model.h"
#include "sim/thermal/grid_simulation.h"

namespace polyarch::sim::thermal::test {

class ReferenceGridIntegrator {
 public:
  ReferenceGridIntegrator(const GridNetwork& network, double interval_s, int substeps)
      : network_(network),
        substeps_(substeps),
        step_s_(interval_s / substeps),
        full_(factor(step_s_)),
        half_(factor(step_s_ / 2.0)) {}

  // Advances every node's rise by one interval at constant block powers.
  void step(std::vector<double>& rise, std::span<const double> block_power_w) const {
    const std::vector<double> power = network_.node_power(block_power_w);
    for (int k = 0; k < substeps_; ++k) {
      const std::vector<double> whole = implicit(full_, step_s_, power, rise);
      std::vector<double> halves = implicit(half_, step_s_ / 2.0, power, rise);
      halves = implicit(half_, step_s_ / 2.0, power, halves);
      for (std::size_t i = 0; i < rise.size(); ++i) rise[i] = 2.0 * halves[i] - whole[i];
    }
  }

 private:
  EnvelopeCholesky factor(double dt) const {
    std::vector<SymmetricEntry> entries = conductance_entries(network_);
    for (int i = 0; i < network_.node_count(); ++i) {
      entries.push_back({i, i, network_.capacitance_j_per_k[i] / dt});
    }
    return EnvelopeCholesky(network_.node_count(), entries);
  }
  // (C/dt + G)·x' = P + C/dt·x
  std::vector<double> implicit(const EnvelopeCholesky& solver, double dt,
                               const std::vector<double>& power,
                               const std::vector<double>& rise) const {
    std::vector<double> rhs(rise.size());
    for (std::size_t i = 0; i < rise.size(); ++i) {
      rhs[i] = power[i] + network_.capacitance_j_per_k[i] / dt * rise[i];
    }
    return solver.solve(rhs);
  }

  const GridNetwork& network_;
  int substeps_;
  double step_s_;
  EnvelopeCholesky full_, half_;
};

}  // namespace polyarch::sim::thermal::test
