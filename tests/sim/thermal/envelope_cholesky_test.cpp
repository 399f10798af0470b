#include "sim/thermal/envelope_cholesky.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "base/error.h"
#include "base/random_draw.h"
#include "sim/thermal/dense_matrix.h"

namespace polyarch::sim::thermal {
namespace {

// A random diagonally dominant matrix with a band of `band` below the diagonal and `border`
// dense last rows, like a grid with its package nodes.
SquareMatrix banded_with_border(int n, int band, int border, std::mt19937& random) {
  auto value = [&](auto& engine) { return polyarch::random_real(engine, -1.0, 0.0); };
  SquareMatrix a(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) {
      if (i - j <= band || i >= n - border) a.at(i, j) = a.at(j, i) = value(random);
    }
  }
  for (int i = 0; i < n; ++i) {
    double sum = 0.1;
    for (int j = 0; j < n; ++j) sum += j == i ? 0.0 : -a.at(i, j);
    a.at(i, i) = sum;
  }
  return a;
}

TEST(ThermalEnvelopeCholesky, SolvesLikeTheDenseFactorOnABandedBorderedMatrix) {
  const unsigned seed = 11;
  std::mt19937 random(seed);
  const int n = 60;
  const SquareMatrix a = banded_with_border(n, 7, 3, random);
  std::vector<SymmetricEntry> entries;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      if (a.at(i, j) != 0.0) entries.push_back({i, j, a.at(i, j)});
    }
  }
  entries.push_back({5, 5, 0.5});  // repeated entries add up
  SquareMatrix with_extra = a;
  with_extra.at(5, 5) += 0.5;
  const EnvelopeCholesky envelope(n, entries);
  auto rhs_value = [&](auto& engine) { return polyarch::random_real(engine, -2.0, 2.0); };
  std::vector<double> rhs(n);
  for (double& v : rhs) v = rhs_value(random);
  const std::vector<double> x = envelope.solve(rhs);
  const std::vector<double> expected = cholesky_solve(cholesky_factor(with_extra), rhs);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(x[i], expected[i], 1e-10) << "seed " << seed;
}

TEST(ThermalEnvelopeCholesky, SolveManyEqualsOneSolvePerRightHandSide) {
  const unsigned seed = 23;
  std::mt19937 random(seed);
  const int n = 40;
  const SquareMatrix a = banded_with_border(n, 5, 2, random);
  std::vector<SymmetricEntry> entries;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      if (a.at(i, j) != 0.0) entries.push_back({i, j, a.at(i, j)});
    }
  }
  const EnvelopeCholesky envelope(n, entries);
  auto rhs_value = [&](auto& engine) { return polyarch::random_real(engine, -2.0, 2.0); };
  std::vector<std::vector<double>> sides(3, std::vector<double>(n));
  for (auto& side : sides) {
    for (double& v : side) v = rhs_value(random);
  }
  const std::vector<std::vector<double>> many = envelope.solve_many(sides);
  ASSERT_EQ(many.size(), sides.size());
  for (std::size_t c = 0; c < sides.size(); ++c) {
    const std::vector<double> one = envelope.solve(sides[c]);
    for (int i = 0; i < n; ++i) EXPECT_NEAR(many[c][i], one[i], 1e-12) << "seed " << seed;
  }
}

TEST(ThermalEnvelopeCholesky, NotPositiveDefiniteIsARuntimeError) {
  const std::vector<SymmetricEntry> entries = {{0, 0, 1.0}, {1, 0, -1.0}, {1, 1, 1.0}};
  try {
    EnvelopeCholesky factor(2, entries);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kRuntime);
    EXPECT_NE(std::string(error.what()).find("no path to ambient"), std::string::npos);
  }
}

}  // namespace
}  // namespace polyarch::sim::thermal
