#pragma once
// The dense linear algebra a block-mode RC network needs (a few hundred nodes at most):
// Cholesky solves for the steady state and a symmetric eigen-decomposition for the exact
// transient propagator.
#include <span>
#include <vector>

namespace polyarch::sim::thermal {

// Σ a[k]·b[k] over [0, length), with four partial sums: a strict left-to-right sum costs one
// add latency per term, and these dot products are the bulk of the grid model's set-up.
inline double unrolled_dot(const double* a, const double* b, int length) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int k = 0;
  for (; k + 4 <= length; k += 4) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
    s2 += a[k + 2] * b[k + 2];
    s3 += a[k + 3] * b[k + 3];
  }
  for (; k < length; ++k) s0 += a[k] * b[k];
  return (s0 + s1) + (s2 + s3);
}

class SquareMatrix {
 public:
  SquareMatrix() = default;
  explicit SquareMatrix(int size) : size_(size), values_(static_cast<std::size_t>(size) * size) {}

  int size() const { return size_; }
  double& at(int row, int column) {
    return values_[static_cast<std::size_t>(row) * size_ + column];
  }
  double at(int row, int column) const {
    return values_[static_cast<std::size_t>(row) * size_ + column];
  }
  std::span<const double> row(int index) const {
    return {values_.data() + static_cast<std::size_t>(index) * size_,
            static_cast<std::size_t>(size_)};
  }

 private:
  int size_ = 0;
  std::vector<double> values_;  // row-major
};

// The lower Cholesky factor L of a symmetric positive definite matrix (A = L·Lᵀ); a matrix that
// is not positive definite is a runtime error (a network with a node not tied to ambient).
SquareMatrix cholesky_factor(const SquareMatrix& matrix);
// Solves L·Lᵀ·x = rhs.
std::vector<double> cholesky_solve(const SquareMatrix& factor, std::span<const double> rhs);

// A = V·diag(values)·Vᵀ for symmetric A; the eigenvectors are V's columns.
struct SymmetricEigen {
  std::vector<double> values;
  SquareMatrix vectors;
};
// Householder tridiagonalisation, then implicit QR steps with Wilkinson shifts (Golub & Van
// Loan, Matrix Computations, 4th ed., §8.3): O(n³), about 10·n³ flops with the eigenvectors.
SymmetricEigen symmetric_eigen(SquareMatrix matrix);

}  // namespace polyarch::sim::thermal
