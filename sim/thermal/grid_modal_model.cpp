#include "sim/thermal/grid_modal_model.h"

#include <algorithm>
#include <cmath>

#include "sim/thermal/dense_matrix.h"

namespace polyarch::sim::thermal {

namespace {

// A row-major rectangular matrix for the projections.
struct Matrix {
  int rows = 0, cols = 0;
  std::vector<double> values;
  Matrix(int r, int c) : rows(r), cols(c), values(static_cast<std::size_t>(r) * c, 0.0) {}
  double& at(int i, int j) { return values[static_cast<std::size_t>(i) * cols + j]; }
  double at(int i, int j) const { return values[static_cast<std::size_t>(i) * cols + j]; }
};

// A package edge connection: a spreader or sink edge cell, its conductance and its ring node.
struct EdgeSlot {
  int layer = 0, row = 0, col = 0, ring = 0;
  double g = 0.0;
};

struct CellPosition {
  int layer = 0, row = 0, col = 0;
};

CellPosition position(const GridNetwork& n, int node) {
  const int ordinal = node / kGridLayerCount;
  CellPosition at{node % kGridLayerCount, 0, 0};
  if (n.cols <= n.rows) {
    at.row = ordinal / n.cols;
    at.col = ordinal % n.cols;
  } else {
    at.col = ordinal / n.rows;
    at.row = ordinal % n.rows;
  }
  return at;
}

// Columns T with Tᵀ·M·T = I spanning M's columns, by Gram–Schmidt in the M inner product (twice,
// for accuracy); a column whose remainder is below 1e-10 of its own norm is left out (it is
// already in the span).
Matrix m_orthonormal_columns(const SquareMatrix& m) {
  const int r = m.size();
  std::vector<std::vector<double>> kept, kept_m;  // t_k and M·t_k
  for (int j = 0; j < r; ++j) {
    std::vector<double> t(r, 0.0);
    t[j] = 1.0;
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t k = 0; k < kept.size(); ++k) {
        double projection = 0.0;
        for (int i = 0; i < r; ++i) projection += kept_m[k][i] * t[i];
        if (projection == 0.0) continue;
        for (int i = 0; i < r; ++i) t[i] -= projection * kept[k][i];
      }
    }
    std::vector<double> mt(r, 0.0);
    for (int i = 0; i < r; ++i) {
      if (t[i] == 0.0) continue;
      for (int k = 0; k < r; ++k) mt[k] += m.at(k, i) * t[i];
    }
    double norm2 = 0.0;
    for (int i = 0; i < r; ++i) norm2 += t[i] * mt[i];
    if (!(norm2 > 1e-10 * m.at(j, j))) continue;
    const double scale = 1.0 / std::sqrt(norm2);
    for (int i = 0; i < r; ++i) {
      t[i] *= scale;
      mt[i] *= scale;
    }
    kept.push_back(std::move(t));
    kept_m.push_back(std::move(mt));
  }
  Matrix out(r, static_cast<int>(kept.size()));
  for (std::size_t k = 0; k < kept.size(); ++k) {
    for (int i = 0; i < r; ++i) out.at(i, static_cast<int>(k)) = kept[k][i];
  }
  return out;
}

std::vector<double> layer_field(const GridNetwork& n, std::span<const double> node_values,
                                int layer) {
  std::vector<double> field(n.cell_count());
  for (int cell = 0; cell < n.cell_count(); ++cell) field[cell] = node_values[n.node(layer, cell)];
  return field;
}

}  // namespace

void GridModalModel::select_cosine_modes(const GridModalOptions& options, double interval_s) {
  const GridNetwork& n = network_;
  std::array<double, kGridLayerCount> inv_sqrt_c;
  for (int l = 0; l < kGridLayerCount; ++l)
    inv_sqrt_c[l] = 1.0 / std::sqrt(n.layers[l].capacitance);
  for (int q = 0; q < n.rows; ++q) {
    for (int p = 0; p < n.cols; ++p) {
      // C^-½·(vertical + lateral)·C^-½ for this cosine product.
      SquareMatrix local(kGridLayerCount);
      for (int l = 0; l < kGridLayerCount; ++l) {
        const GridLayerCoefficients& c = n.layers[l];
        double diagonal = c.down_g + c.east_west_g * by_cols_.laplacian_eigenvalue(p) +
                          c.north_south_g * by_rows_.laplacian_eigenvalue(q);
        if (l > 0) diagonal += n.layers[l - 1].down_g;
        local.at(l, l) = diagonal * inv_sqrt_c[l] * inv_sqrt_c[l];
        if (l + 1 < kGridLayerCount) {
          const double off = -c.down_g * inv_sqrt_c[l] * inv_sqrt_c[l + 1];
          local.at(l, l + 1) = off;
          local.at(l + 1, l) = off;
        }
      }
      const SymmetricEigen eigen = symmetric_eigen(std::move(local));
      for (int k = 0; k < kGridLayerCount; ++k) {
        if (!(eigen.values[k] * interval_s < options.rate_interval_limit)) continue;
        CosineMode mode{q, p, {}, eigen.values[k]};
        for (int l = 0; l < kGridLayerCount; ++l)
          mode.v[l] = eigen.vectors.at(l, k) * inv_sqrt_c[l];
        cosine_.push_back(mode);
      }
    }
  }
  std::sort(cosine_.begin(), cosine_.end(),
            [](const CosineMode& a, const CosineMode& b) { return a.rate < b.rate; });
  if (static_cast<int>(cosine_.size()) > options.max_cosine_modes) {
    cosine_.resize(options.max_cosine_modes);
  }
}

namespace {

// Rayleigh–Ritz on the basis: an M-orthonormal T, the eigenpairs of Tᵀ·K·T, and W = T·U (basis
// x modes) with the modes' rates.
struct RitzModes {
  Matrix w{0, 0};
  std::vector<double> rates;
};

RitzModes rayleigh_ritz(const SquareMatrix& k, const SquareMatrix& m) {
  const int r = k.size();
  const Matrix t = m_orthonormal_columns(m);
  const int modes = t.cols;
  Matrix kt(r, modes);
  for (int i = 0; i < r; ++i) {
    for (int j = 0; j < r; ++j) {
      const double kij = k.at(i, j);
      if (kij == 0.0) continue;
      for (int c = 0; c < modes; ++c) kt.at(i, c) += kij * t.at(j, c);
    }
  }
  SquareMatrix reduced(modes);
  for (int i = 0; i < r; ++i) {
    for (int a = 0; a < modes; ++a) {
      const double tia = t.at(i, a);
      if (tia == 0.0) continue;
      for (int b = 0; b < modes; ++b) reduced.at(a, b) += tia * kt.at(i, b);
    }
  }
  for (int a = 0; a < modes; ++a) {
    for (int b = 0; b < a; ++b)
      reduced.at(a, b) = reduced.at(b, a) = 0.5 * (reduced.at(a, b) + reduced.at(b, a));
  }
  const SymmetricEigen eigen = symmetric_eigen(std::move(reduced));
  RitzModes out{Matrix(r, modes), {}};
  for (int i = 0; i < r; ++i) {
    for (int a = 0; a < modes; ++a) {
      const double tia = t.at(i, a);
      if (tia == 0.0) continue;
      for (int c = 0; c < modes; ++c) out.w.at(i, c) += tia * eigen.vectors.at(a, c);
    }
  }
  for (int c = 0; c < modes; ++c) out.rates.push_back(std::max(eigen.values[c], 0.0));
  return out;
}

}  // namespace

double GridModalModel::cosine_value(int mode, int layer, int row, int col) const {
  const CosineMode& m = cosine_[mode];
  return m.v[layer] * by_rows_.at(m.q, row) * by_cols_.at(m.p, col);
}

// Package edges: the cells' conductance to the ring (on the cosine modes and the ring nodes),
// the ring's own conductances and capacitances.
void GridModalModel::add_package_terms(SquareMatrix& k, SquareMatrix& m) const {
  const GridNetwork& n = network_;
  const int na = static_cast<int>(cosine_.size()), nr = n.ring.count, ring0 = na;
  std::vector<EdgeSlot> slots;
  for (const Coupling& c : n.couplings) {
    const bool a_ring = c.a >= n.cell_node_count(), b_ring = c.b >= n.cell_node_count();
    if (a_ring && b_ring) {
      const int x = ring0 + c.a - n.cell_node_count(), y = ring0 + c.b - n.cell_node_count();
      k.at(x, x) += c.g;
      k.at(y, y) += c.g;
      k.at(x, y) -= c.g;
      k.at(y, x) -= c.g;
    } else if (a_ring != b_ring) {
      const CellPosition at = position(n, a_ring ? c.b : c.a);
      slots.push_back({at.layer, at.row, at.col, (a_ring ? c.a : c.b) - n.cell_node_count(), c.g});
    }
  }
  for (int x = 0; x < nr; ++x) {
    k.at(ring0 + x, ring0 + x) += n.ambient_g[n.cell_node_count() + x];
    m.at(ring0 + x, ring0 + x) = n.capacitance_j_per_k[n.cell_node_count() + x];
  }
  std::vector<double> edge_values(na);
  for (const EdgeSlot& s : slots) {
    for (int a = 0; a < na; ++a) edge_values[a] = cosine_value(a, s.layer, s.row, s.col);
    for (int a = 0; a < na; ++a) {
      const double weighted = s.g * edge_values[a];
      if (weighted == 0.0) continue;
      for (int b = 0; b < na; ++b) k.at(a, b) += weighted * edge_values[b];
      k.at(a, ring0 + s.ring) -= weighted;
      k.at(ring0 + s.ring, a) -= weighted;
    }
    k.at(ring0 + s.ring, ring0 + s.ring) += s.g;
  }
}

// The whole-grid vectors against everything: Vᵀ·G·f and Vᵀ·C·f.
void GridModalModel::add_full_vector_terms(SquareMatrix& k, SquareMatrix& m) const {
  const GridNetwork& n = network_;
  const int full0 = static_cast<int>(cosine_.size()) + n.ring.count, r = basis_size_;
  for (int j = 0; j < static_cast<int>(full_.size()); ++j) {
    const std::vector<double> k_column = project(apply_conductance(n, full_[j]));
    std::vector<double> stored(n.node_count());
    for (int i = 0; i < n.node_count(); ++i) stored[i] = n.capacitance_j_per_k[i] * full_[j][i];
    const std::vector<double> m_column = project(stored);
    // Earlier full vectors already hold (j', j) from their own columns; average the two
    // roundings there so that K and M stay exactly symmetric.
    for (int i = 0; i < full0 + j; ++i) {
      const bool earlier_full = i >= full0;
      const double kv = earlier_full ? 0.5 * (k.at(i, full0 + j) + k_column[i]) : k_column[i];
      const double mv = earlier_full ? 0.5 * (m.at(i, full0 + j) + m_column[i]) : m_column[i];
      k.at(i, full0 + j) = k.at(full0 + j, i) = kv;
      m.at(i, full0 + j) = m.at(full0 + j, i) = mv;
    }
    for (int later = full0 + j; later < r; ++later) {  // read back when `later`'s turn comes
      k.at(full0 + j, later) = k_column[later];
      m.at(full0 + j, later) = m_column[later];
    }
  }
}

GridModalModel::GridModalModel(const GridNetwork& network, const EnvelopeCholesky& conductance,
                               double interval_s, std::span<const std::vector<double>> extra,
                               GridModalOptions options)
    : network_(network), by_rows_(network.rows), by_cols_(network.cols) {
  const GridNetwork& n = network;
  const int blocks = n.block_count();
  std::vector<std::vector<double>> block_power;  // B·e_b
  for (int b = 0; b < blocks; ++b) {
    std::vector<double> unit(blocks, 0.0);
    unit[b] = 1.0;
    block_power.push_back(n.node_power(unit));
  }
  full_ = conductance.solve_many(block_power);
  for (const std::vector<double>& vector : extra) full_.push_back(vector);
  select_cosine_modes(options, interval_s);
  const int na = static_cast<int>(cosine_.size()), nr = n.ring.count;
  const int full0 = na + nr, nf = static_cast<int>(full_.size());
  basis_size_ = na + nr + nf;
  const int r = basis_size_;

  SquareMatrix k(r), m(r);
  for (int a = 0; a < na; ++a) {
    k.at(a, a) = cosine_[a].rate;
    m.at(a, a) = 1.0;
  }
  add_package_terms(k, m);
  add_full_vector_terms(k, m);
  const RitzModes ritz = rayleigh_ritz(k, m);
  const Matrix& w = ritz.w;
  const int modes = w.cols;

  // Per mode: its decay over the interval and its integrated response to a unit input.
  decay_.resize(modes);
  std::vector<double> gain(modes);
  for (int c = 0; c < modes; ++c) {
    const double rate = ritz.rates[c];
    decay_[c] = std::exp(-rate * interval_s);
    gain[c] = rate > 0.0 ? -std::expm1(-rate * interval_s) / rate : interval_s;
  }
  to_modes_.assign(static_cast<std::size_t>(modes) * r, 0.0);  // Wᵀ, each mode's row contiguous
  for (int i = 0; i < r; ++i) {
    for (int c = 0; c < modes; ++c) to_modes_[static_cast<std::size_t>(c) * r + i] = w.at(i, c);
  }
  auto w_column = [&](int c) { return to_modes_.data() + static_cast<std::size_t>(c) * r; };
  input_.assign(static_cast<std::size_t>(modes) * blocks, 0.0);
  for (int b = 0; b < blocks; ++b) {
    const std::vector<double> column = project(block_power[b]);  // Vᵀ·B·e_b
    for (int c = 0; c < modes; ++c) {
      const double* wc = w_column(c);
      double sum = 0.0;
      for (int i = 0; i < r; ++i) sum += wc[i] * column[i];
      input_[static_cast<std::size_t>(c) * blocks + b] = gain[c] * sum;
    }
  }
  // Probe rows of V·W: cosine modes at the centre cells, the full vectors' own probes.
  output_.assign(static_cast<std::size_t>(blocks) * modes, 0.0);
  std::vector<double> probe(r);
  for (int b = 0; b < blocks; ++b) {
    for (int a = 0; a < na; ++a) {
      double sum = 0.0;
      for (int cell : n.block_probe_cells[b])
        sum += cosine_value(a, kGridSilicon, cell / n.cols, cell % n.cols);
      probe[a] = sum / 4.0;
    }
    for (int x = 0; x < nr; ++x) probe[na + x] = 0.0;
    for (int j = 0; j < nf; ++j) probe[full0 + j] = n.block_rise(full_[j], b);
    for (int c = 0; c < modes; ++c) {
      const double* wc = w_column(c);
      double sum = 0.0;
      for (int i = 0; i < r; ++i) sum += probe[i] * wc[i];
      output_[static_cast<std::size_t>(b) * modes + c] = sum;
    }
  }
}

std::vector<double> GridModalModel::project(std::span<const double> node_values) const {
  const GridNetwork& n = network_;
  std::vector<double> projection(basis_size_, 0.0);
  std::array<std::vector<double>, kGridLayerCount> layer_modes;
  for (int l = 0; l < kGridLayerCount; ++l) {
    layer_modes[l] = cosine_transform(by_rows_, by_cols_, layer_field(n, node_values, l));
  }
  const int na = static_cast<int>(cosine_.size());
  for (int a = 0; a < na; ++a) {
    const int index = cosine_[a].q * n.cols + cosine_[a].p;
    for (int l = 0; l < kGridLayerCount; ++l) {
      projection[a] += cosine_[a].v[l] * layer_modes[l][index];
    }
  }
  for (int x = 0; x < n.ring.count; ++x) projection[na + x] = node_values[n.cell_node_count() + x];
  for (std::size_t j = 0; j < full_.size(); ++j) {
    projection[na + n.ring.count + j] = unrolled_dot(full_[j].data(), node_values.data(), n.node_count());
  }
  return projection;
}

std::vector<double> GridModalModel::coordinates(std::span<const double> node_rise) const {
  std::vector<double> stored(network_.node_count());
  for (int i = 0; i < network_.node_count(); ++i) {
    stored[i] = network_.capacitance_j_per_k[i] * node_rise[i];
  }
  const std::vector<double> projection = project(stored);
  std::vector<double> modal(mode_count(), 0.0);
  for (int c = 0; c < mode_count(); ++c) {
    const double* row = to_modes_.data() + static_cast<std::size_t>(c) * basis_size_;
    for (int i = 0; i < basis_size_; ++i) modal[c] += row[i] * projection[i];
  }
  return modal;
}

void GridModalModel::step(std::vector<double>& modal, std::span<const double> block_power_w) const {
  const int blocks = network_.block_count();
  for (int c = 0; c < mode_count(); ++c) {
    const double* input = input_.data() + static_cast<std::size_t>(c) * blocks;
    double sum = decay_[c] * modal[c];
    for (int b = 0; b < blocks; ++b) sum += input[b] * block_power_w[b];
    modal[c] = sum;
  }
}

void GridModalModel::block_rise(std::span<const double> modal, std::span<double> out) const {
  for (int b = 0; b < network_.block_count(); ++b) {
    const double* row = output_.data() + static_cast<std::size_t>(b) * mode_count();
    double sum = 0.0;
    for (int c = 0; c < mode_count(); ++c) sum += row[c] * modal[c];
    out[b] = sum;
  }
}

}  // namespace polyarch::sim::thermal
