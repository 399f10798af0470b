#pragma once
// The transient of a grid network, reduced to the few hundred modes that matter at the end of a
// sampling interval, and exact in steady state.
//
// The state lives in the span of (1) the exact slow modes of the grid without its package edges
// (per cosine product (q, p) a 4 x 4 vertical problem; modes decaying by less than e^-15 over an
// interval), (2) the package-ring nodes, (3) each block's exact steady response G⁻¹·B·e_b and
// (4) any further whole-grid vectors the caller adds (the start of a run and its Krylov
// vectors). The Galerkin (Rayleigh–Ritz) projection of C·dθ/dt + G·θ = B·u onto that span is
// diagonalised once; each interval then advances every mode exactly for piecewise-constant
// power. Because (3) is in the span, the steady state is G⁻¹·B·u exactly, and the fast dynamics
// left out are the quasi-static ones. README.md gives the derivation and its accuracy.
#include <array>
#include <span>
#include <vector>

#include "sim/thermal/cosine_basis.h"
#include "sim/thermal/dense_matrix.h"
#include "sim/thermal/envelope_cholesky.h"
#include "sim/thermal/grid_model.h"

namespace polyarch::sim::thermal {

struct GridModalOptions {
  // Keep the cosine modes with rate·interval below this (their decay over one interval is above
  // e^-15 = 3e-7; faster ones are quasi-static at the end of every interval, which the steady
  // responses in the span represent exactly).
  double rate_interval_limit = 15.0;
  int max_cosine_modes = 600;  // the slowest ones first
};

class GridModalModel {
 public:
  GridModalModel(const GridNetwork& network, const EnvelopeCholesky& conductance, double interval_s,
                 std::span<const std::vector<double>> extra_vectors = {},
                 GridModalOptions options = {});

  int mode_count() const { return static_cast<int>(decay_.size()); }
  // Modal coordinates of a state given as every node's rise above ambient: its C-orthogonal
  // projection onto the model's span (exact for a state in it, e.g. a steady state).
  std::vector<double> coordinates(std::span<const double> node_rise) const;
  // Advances the modal state by one interval at constant block powers.
  void step(std::vector<double>& modal, std::span<const double> block_power_w) const;
  // The blocks' reported rises (centre cells, as HotSpot reads them).
  void block_rise(std::span<const double> modal, std::span<double> out) const;

 private:
  struct CosineMode {
    int q = 0, p = 0;                       // row and column wave numbers
    std::array<double, kGridLayerCount> v;  // vertical profile, C-normalised
    double rate = 0.0;
  };
  void select_cosine_modes(const GridModalOptions& options, double interval_s);
  // φ_a at one cell of one layer.
  double cosine_value(int mode, int layer, int row, int col) const;
  // The package ring's and the package edges' terms of K (conductance) and M (capacitance) on
  // the basis, then the whole-grid vectors' rows and columns.
  void add_package_terms(SquareMatrix& k, SquareMatrix& m) const;
  void add_full_vector_terms(SquareMatrix& k, SquareMatrix& m) const;
  std::vector<double> project(std::span<const double> node_values) const;  // Vᵀ·x

  const GridNetwork& network_;
  CosineBasis by_rows_, by_cols_;
  std::vector<CosineMode> cosine_;
  std::vector<std::vector<double>> full_;  // whole-grid basis vectors: G⁻¹·B·e_b, then extras
  int basis_size_ = 0;
  // Row-major: Wᵀ (modes x basis), the interval's gain times Wᵀ·Vᵀ·B (modes x blocks), the
  // probe rows of V·W (blocks x modes); e^{-λh} per mode.
  std::vector<double> to_modes_, input_, output_, decay_;
};

}  // namespace polyarch::sim::thermal
