#include "sim/thermal/dense_matrix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "base/error.h"
#include "base/random_draw.h"

namespace polyarch::sim::thermal {
namespace {

// A random symmetric, diagonally dominant (so positive definite) matrix; fixed seed.
SquareMatrix random_spd(int size, unsigned seed) {
  std::mt19937 random(seed);
  auto value = [&](auto& engine) { return polyarch::random_real(engine, -1.0, 1.0); };
  SquareMatrix matrix(size);
  for (int i = 0; i < size; ++i) {
    for (int j = 0; j < i; ++j) matrix.at(i, j) = matrix.at(j, i) = value(random);
  }
  for (int i = 0; i < size; ++i) matrix.at(i, i) = size + value(random);
  return matrix;
}

TEST(ThermalDenseMatrix, CholeskySolveReproducesTheRightHandSide) {
  const SquareMatrix matrix = random_spd(12, 7);
  std::vector<double> rhs(12);
  for (int i = 0; i < 12; ++i) rhs[i] = i - 3.5;
  const std::vector<double> x = cholesky_solve(cholesky_factor(matrix), rhs);
  for (int i = 0; i < 12; ++i) {
    double sum = 0.0;
    for (int j = 0; j < 12; ++j) sum += matrix.at(i, j) * x[j];
    EXPECT_NEAR(sum, rhs[i], 1e-12) << "seed 7, row " << i;
  }
}

TEST(ThermalDenseMatrix, CholeskyRejectsAMatrixThatIsNotPositiveDefinite) {
  SquareMatrix singular(2);
  singular.at(0, 0) = singular.at(1, 1) = 1.0;
  singular.at(0, 1) = singular.at(1, 0) = -1.0;
  EXPECT_THROW(cholesky_factor(singular), Error);
}

TEST(ThermalDenseMatrix, EigenDecompositionReconstructsTheMatrix) {
  const SquareMatrix matrix = random_spd(20, 11);
  const SymmetricEigen eigen = symmetric_eigen(matrix);
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) {
      double sum = 0.0, identity = 0.0;
      for (int k = 0; k < 20; ++k) {
        sum += eigen.vectors.at(i, k) * eigen.values[k] * eigen.vectors.at(j, k);
        identity += eigen.vectors.at(k, i) * eigen.vectors.at(k, j);
      }
      EXPECT_NEAR(sum, matrix.at(i, j), 1e-11) << "seed 11, entry " << i << "," << j;
      EXPECT_NEAR(identity, i == j ? 1.0 : 0.0, 1e-12);
    }
  }
}

TEST(ThermalDenseMatrix, EigenValuesOfAGradedMatrixResolveTheSmallest) {
  // Thermal networks mix microsecond and minute time constants: rates over ten decades. A
  // path graph's Laplacian scaled by 10^i per node, plus a small tie to ground at one end.
  constexpr int kSize = 11;
  SquareMatrix matrix(kSize);
  for (int i = 0; i + 1 < kSize; ++i) {
    const double g = std::pow(10.0, i);
    matrix.at(i, i) += g;
    matrix.at(i + 1, i + 1) += g;
    matrix.at(i, i + 1) = matrix.at(i + 1, i) = -g;
  }
  matrix.at(0, 0) += 1e-3;
  const SymmetricEigen eigen = symmetric_eigen(matrix);
  // A grounded path's determinant is its ground conductance times the product of its
  // conductances (matrix-tree theorem): 1e-3 · 10^(0+1+…+9). The product of the eigenvalues
  // matches it only if the smallest (~1e-4, twelve decades below the largest) is resolved.
  // QR is accurate to ε·‖A‖ in absolute terms (here ~4e-4 relative on the smallest), which is
  // what the transient needs: a rate error δλ changes e^(−λt) by t·δλ ≈ 1e-9 per second of
  // simulated time for HotSpot-sized networks.
  double log10_product = 0.0;
  for (double value : eigen.values) {
    ASSERT_GT(value, 0.0);
    log10_product += std::log10(value);
  }
  EXPECT_NEAR(log10_product, -3.0 + 45.0, 1e-3);
}

}  // namespace
}  // namespace polyarch::sim::thermal
