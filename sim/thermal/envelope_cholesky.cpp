#include "sim/thermal/envelope_cholesky.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.h"
#include "sim/thermal/dense_matrix.h"

namespace polyarch::sim::thermal {

EnvelopeCholesky::EnvelopeCholesky(int n, std::span<const SymmetricEntry> entries)
    : first_(n), offset_(n + 1) {
  for (int i = 0; i < n; ++i) first_[i] = i;
  for (const SymmetricEntry& e : entries) first_[e.row] = std::min(first_[e.row], e.column);
  offset_[0] = 0;
  for (int i = 0; i < n; ++i) offset_[i + 1] = offset_[i] + (i - first_[i] + 1);
  values_.assign(offset_[n], 0.0);
  for (const SymmetricEntry& e : entries) row(e.row)[e.column] += e.value;

  // Row by row (the "bordering" form): L[i][j] = (A[i][j] − Σ_k L[i][k]·L[j][k]) / L[j][j] for
  // the columns k both rows store, then the diagonal.
  for (int i = 0; i < n; ++i) {
    double* li = row(i);
    for (int j = first_[i]; j < i; ++j) {
      const double* lj = row(j);
      const int start = std::max(first_[i], first_[j]);
      li[j] = (li[j] - unrolled_dot(li + start, lj + start, j - start)) / lj[j];
    }
    const double pivot = li[i] - unrolled_dot(li + first_[i], li + first_[i], i - first_[i]);
    if (!(pivot > 0.0)) {
      throw_runtime({}, "thermal conductance matrix is not positive definite (node " +
                            std::to_string(i) + " has no path to ambient)");
    }
    li[i] = std::sqrt(pivot);
  }
}

std::vector<double> EnvelopeCholesky::solve(std::span<const double> rhs) const {
  const int n = size();
  std::vector<double> x(rhs.begin(), rhs.end());
  for (int i = 0; i < n; ++i) {  // L·y = rhs
    const double* li = row(i);
    x[i] = (x[i] - unrolled_dot(li + first_[i], x.data() + first_[i], i - first_[i])) / li[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // Lᵀ·x = y, column by column
    const double* li = row(i);
    x[i] /= li[i];
    const double xi = x[i];
    for (int k = first_[i]; k < i; ++k) x[k] -= li[k] * xi;
  }
  return x;
}

std::vector<std::vector<double>> EnvelopeCholesky::solve_many(
    std::span<const std::vector<double>> rhs) const {
  const int n = size();
  const std::size_t m = rhs.size();
  // Row-major n x m: the sides of one row are contiguous, so each factor entry updates them all.
  std::vector<double> x(static_cast<std::size_t>(n) * m);
  for (std::size_t c = 0; c < m; ++c) {
    for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i) * m + c] = rhs[c][i];
  }
  auto at = [&](int i) { return x.data() + static_cast<std::size_t>(i) * m; };
  for (int i = 0; i < n; ++i) {  // L·Y = rhs
    const double* li = row(i);
    double* xi = at(i);
    for (int k = first_[i]; k < i; ++k) {
      const double lik = li[k];
      const double* xk = at(k);
      for (std::size_t c = 0; c < m; ++c) xi[c] -= lik * xk[c];
    }
    for (std::size_t c = 0; c < m; ++c) xi[c] /= li[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // Lᵀ·X = Y, column by column
    const double* li = row(i);
    double* xi = at(i);
    for (std::size_t c = 0; c < m; ++c) xi[c] /= li[i];
    for (int k = first_[i]; k < i; ++k) {
      const double lik = li[k];
      double* xk = at(k);
      for (std::size_t c = 0; c < m; ++c) xk[c] -= lik * xi[c];
    }
  }
  std::vector<std::vector<double>> out(m, std::vector<double>(n));
  for (std::size_t c = 0; c < m; ++c) {
    for (int i = 0; i < n; ++i) out[c][i] = x[static_cast<std::size_t>(i) * m + c];
  }
  return out;
}

}  // namespace polyarch::sim::thermal
