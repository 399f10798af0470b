#pragma once
// Steady state and transient of a thermal RC network, C·dθ/dt + G·θ = P, for θ the nodes' rise
// above ambient and P the power into the silicon nodes (the first `block_count` nodes).
#include <span>
#include <vector>

#include "sim/thermal/block_model.h"
#include "sim/thermal/dense_matrix.h"

namespace polyarch::sim::thermal {

// θ = G⁻¹·P by a Cholesky factorisation of G (done once).
class SteadySolver {
 public:
  explicit SteadySolver(const ThermalNetwork& network);
  std::vector<double> rise_k(std::span<const double> block_power_w) const;  // every node

 private:
  int block_count_ = 0;
  SquareMatrix factor_;
};

// The exact solution over one interval h of constant power:
//   θ(t+h) = E·θ(t) + F·P,  E = exp(−C⁻¹G·h),  F = (I − E)·G⁻¹.
// Both come from the eigen-decomposition of the symmetric S = C^−½·G·C^−½ = V·Λ·Vᵀ:
//   E = C^−½·V·e^{−Λh}·Vᵀ·C^½,  F = C^−½·V·Λ⁻¹(1 − e^{−Λh})·Vᵀ·C^−½.
// Exact for piecewise-constant power (HotSpot integrates the same ODE with adaptive RK4 to
// 0.01 K per step), unconditionally stable, O(nodes²) per interval after an O(nodes³) setup.
class TransientSolver {
 public:
  TransientSolver(const ThermalNetwork& network, double interval_s);
  // Advances `rise_k` (every node) by one interval at `block_power_w`.
  void step(std::vector<double>& rise_k, std::span<const double> block_power_w);

 private:
  int node_count_ = 0;
  int block_count_ = 0;
  SquareMatrix propagator_;    // E
  std::vector<double> input_;  // F's silicon columns, node-major: input_[node * blocks + b]
  std::vector<double> next_;   // scratch
};

}  // namespace polyarch::sim::thermal
