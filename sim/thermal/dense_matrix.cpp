#include "sim/thermal/dense_matrix.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"

namespace polyarch::sim::thermal {

SquareMatrix cholesky_factor(const SquareMatrix& matrix) {
  const int n = matrix.size();
  SquareMatrix factor(n);
  for (int j = 0; j < n; ++j) {
    double diagonal = matrix.at(j, j);
    for (int k = 0; k < j; ++k) diagonal -= factor.at(j, k) * factor.at(j, k);
    if (!(diagonal > 0.0)) {
      throw_runtime({}, "thermal conductance matrix is not positive definite (node " +
                            std::to_string(j) + " has no path to ambient)");
    }
    const double pivot = std::sqrt(diagonal);
    factor.at(j, j) = pivot;
    for (int i = j + 1; i < n; ++i) {
      double sum = matrix.at(i, j);
      for (int k = 0; k < j; ++k) sum -= factor.at(i, k) * factor.at(j, k);
      factor.at(i, j) = sum / pivot;
    }
  }
  return factor;
}

std::vector<double> cholesky_solve(const SquareMatrix& factor, std::span<const double> rhs) {
  const int n = factor.size();
  std::vector<double> x(rhs.begin(), rhs.end());
  for (int i = 0; i < n; ++i) {  // L·y = rhs
    for (int k = 0; k < i; ++k) x[i] -= factor.at(i, k) * x[k];
    x[i] /= factor.at(i, i);
  }
  for (int i = n - 1; i >= 0; --i) {  // Lᵀ·x = y
    for (int k = i + 1; k < n; ++k) x[i] -= factor.at(k, i) * x[k];
    x[i] /= factor.at(i, i);
  }
  return x;
}

namespace {

// Householder reduction of symmetric `a` to tridiagonal T = Qᵀ·A·Q (Golub & Van Loan, Matrix
// Computations, 4th ed., Algorithm 8.3.1). Leaves T's diagonal in `d`, its off-diagonal in `e`
// (e[i] = T(i, i+1)), and Qᵀ in `q_transposed` (rows are Q's columns, kept contiguous for the
// rotations that follow).
void tridiagonalize(SquareMatrix& a, std::vector<double>& d, std::vector<double>& e,
                    SquareMatrix& q_transposed) {
  const int n = a.size();
  std::vector<double> v(n), p(n), u(n);
  for (int k = 0; k + 2 < n; ++k) {
    const int first = k + 1, length = n - first;
    double norm = 0.0;
    for (int i = 0; i < length; ++i) norm += a.at(first + i, k) * a.at(first + i, k);
    norm = std::sqrt(norm);
    if (norm == 0.0) continue;
    const double sign = a.at(first, k) >= 0.0 ? 1.0 : -1.0;
    // v = x + sign·‖x‖·e₁, so that (I − β·v·vᵀ)·x = −sign·‖x‖·e₁.
    double vtv = 0.0;
    for (int i = 0; i < length; ++i) {
      v[i] = a.at(first + i, k) + (i == 0 ? sign * norm : 0.0);
      vtv += v[i] * v[i];
    }
    const double beta = 2.0 / vtv;
    // Trailing block: A ← A − v·wᵀ − w·vᵀ with p = β·A·v, w = p − (β·pᵀv/2)·v.
    double ptv = 0.0;
    for (int i = 0; i < length; ++i) {
      std::span<const double> row = a.row(first + i);
      double sum = 0.0;
      for (int j = 0; j < length; ++j) sum += row[first + j] * v[j];
      p[i] = beta * sum;
      ptv += p[i] * v[i];
    }
    const double half = beta * ptv / 2.0;
    for (int i = 0; i < length; ++i) p[i] -= half * v[i];  // p is now w
    for (int i = 0; i < length; ++i) {
      for (int j = 0; j < length; ++j) a.at(first + i, first + j) -= v[i] * p[j] + p[i] * v[j];
    }
    a.at(first, k) = a.at(k, first) = -sign * norm;
    for (int i = 1; i < length; ++i) a.at(first + i, k) = a.at(k, first + i) = 0.0;
    // Q ← Q·H: Qᵀ's rows first.. ← rows − β·v·(vᵀ·rows).
    std::fill(u.begin(), u.end(), 0.0);
    for (int i = 0; i < length; ++i) {
      std::span<const double> row = q_transposed.row(first + i);
      for (int j = 0; j < n; ++j) u[j] += v[i] * row[j];
    }
    for (int i = 0; i < length; ++i) {
      for (int j = 0; j < n; ++j) q_transposed.at(first + i, j) -= beta * v[i] * u[j];
    }
  }
  for (int i = 0; i < n; ++i) d[i] = a.at(i, i);
  for (int i = 0; i + 1 < n; ++i) e[i] = a.at(i, i + 1);
}

// One implicit symmetric QR step with Wilkinson shift on the unreduced block [first, last] of
// the tridiagonal (d, e) (Golub & Van Loan, Algorithm 8.3.2): Givens rotations chase the bulge
// down the block; each is also applied to Qᵀ's rows.
void implicit_qr_step(std::vector<double>& d, std::vector<double>& e, int first, int last,
                      SquareMatrix& q_transposed) {
  const double delta = (d[last - 1] - d[last]) / 2.0;
  const double b = e[last - 1];
  const double shift =
      d[last] - b * b / (delta + (delta >= 0.0 ? 1.0 : -1.0) * std::hypot(delta, b));
  double x = d[first] - shift, z = e[first];
  const int n = q_transposed.size();
  for (int k = first; k < last; ++k) {
    // The rotation J in the (k, k+1) plane with Jᵀ·(x, z) = (r, 0); T ← Jᵀ·T·J.
    const double r = std::hypot(x, z);
    const double c = r == 0.0 ? 1.0 : x / r;
    const double s = r == 0.0 ? 0.0 : -z / r;
    if (k > first) e[k - 1] = r;
    const double a = d[k], f = e[k], g = d[k + 1];
    d[k] = c * c * a - 2.0 * c * s * f + s * s * g;
    d[k + 1] = s * s * a + 2.0 * c * s * f + c * c * g;
    e[k] = c * s * (a - g) + (c * c - s * s) * f;
    if (k + 1 < last) {
      x = e[k];
      z = -s * e[k + 1];  // the bulge at T(k, k+2)
      e[k + 1] *= c;
    }
    for (int j = 0; j < n; ++j) {
      const double qk = q_transposed.at(k, j), qk1 = q_transposed.at(k + 1, j);
      q_transposed.at(k, j) = c * qk - s * qk1;
      q_transposed.at(k + 1, j) = s * qk + c * qk1;
    }
  }
}

bool negligible(double off_diagonal, double left, double right) {
  return std::fabs(off_diagonal) <=
         std::numeric_limits<double>::epsilon() * (std::fabs(left) + std::fabs(right));
}

}  // namespace

SymmetricEigen symmetric_eigen(SquareMatrix matrix) {
  const int n = matrix.size();
  SquareMatrix q_transposed(n);
  for (int i = 0; i < n; ++i) q_transposed.at(i, i) = 1.0;
  std::vector<double> d(n), e(std::max(n - 1, 0));
  tridiagonalize(matrix, d, e, q_transposed);
  // Deflate from the bottom: a negligible off-diagonal splits off a converged eigenvalue.
  const int iteration_limit = 30 * std::max(n, 1);
  int iterations = 0;
  for (int last = n - 1; last > 0;) {
    if (negligible(e[last - 1], d[last - 1], d[last])) {
      e[last - 1] = 0.0;
      --last;
      continue;
    }
    int first = last - 1;
    while (first > 0 && !negligible(e[first - 1], d[first - 1], d[first])) --first;
    implicit_qr_step(d, e, first, last, q_transposed);
    if (++iterations > iteration_limit) {
      throw_runtime({}, "symmetric eigen-decomposition did not converge");
    }
  }
  SymmetricEigen result{d, SquareMatrix(n)};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) result.vectors.at(i, j) = q_transposed.at(j, i);
  }
  return result;
}

}  // namespace polyarch::sim::thermal
