#include "sim/thermal/rc_solver.h"

#include <cmath>

namespace polyarch::sim::thermal {

SteadySolver::SteadySolver(const ThermalNetwork& network)
    : block_count_(network.block_count), factor_(cholesky_factor(network.conductance_w_per_k)) {}

std::vector<double> SteadySolver::rise_k(std::span<const double> block_power_w) const {
  std::vector<double> power(factor_.size(), 0.0);
  for (int b = 0; b < block_count_; ++b) power[b] = block_power_w[b];
  return cholesky_solve(factor_, power);
}

TransientSolver::TransientSolver(const ThermalNetwork& network, double interval_s)
    : node_count_(network.node_count()), block_count_(network.block_count) {
  const int n = node_count_;
  const std::vector<double>& c = network.capacitance_j_per_k;
  std::vector<double> inv_sqrt_c(n), sqrt_c(n);
  for (int i = 0; i < n; ++i) {
    sqrt_c[i] = std::sqrt(c[i]);
    inv_sqrt_c[i] = 1.0 / sqrt_c[i];
  }
  SquareMatrix symmetric(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      symmetric.at(i, j) = inv_sqrt_c[i] * network.conductance_w_per_k.at(i, j) * inv_sqrt_c[j];
    }
  }
  const SymmetricEigen eigen = symmetric_eigen(std::move(symmetric));
  // Per mode: its decay over the interval and its integrated response to a unit input.
  std::vector<double> decay(n), gain(n);
  for (int k = 0; k < n; ++k) {
    const double rate = std::max(eigen.values[k], 0.0);
    decay[k] = std::exp(-rate * interval_s);
    gain[k] = rate > 0.0 ? -std::expm1(-rate * interval_s) / rate : interval_s;
  }
  propagator_ = SquareMatrix(n);
  input_.assign(static_cast<std::size_t>(n) * block_count_, 0.0);
  const SquareMatrix& v = eigen.vectors;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double e = 0.0, f = 0.0;
      for (int k = 0; k < n; ++k) {
        const double product = v.at(i, k) * v.at(j, k);
        e += product * decay[k];
        f += product * gain[k];
      }
      propagator_.at(i, j) = inv_sqrt_c[i] * e * sqrt_c[j];
      if (j < block_count_)
        input_[static_cast<std::size_t>(i) * block_count_ + j] = inv_sqrt_c[i] * f * inv_sqrt_c[j];
    }
  }
  next_.assign(n, 0.0);
}

void TransientSolver::step(std::vector<double>& rise_k, std::span<const double> block_power_w) {
  for (int i = 0; i < node_count_; ++i) {
    std::span<const double> row = propagator_.row(i);
    const double* input = input_.data() + static_cast<std::size_t>(i) * block_count_;
    double sum = 0.0;
    for (int j = 0; j < node_count_; ++j) sum += row[j] * rise_k[j];
    for (int b = 0; b < block_count_; ++b) sum += input[b] * block_power_w[b];
    next_[i] = sum;
  }
  rise_k.swap(next_);
}

}  // namespace polyarch::sim::thermal
