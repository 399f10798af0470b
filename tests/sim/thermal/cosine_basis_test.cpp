#include "sim/thermal/cosine_basis.h"

#include <gtest/gtest.h>

namespace polyarch::sim::thermal {
namespace {

TEST(ThermalCosineBasis, IsOrthonormalAndDiagonalisesTheInsulatedLineLaplacian) {
  const int n = 7;
  const CosineBasis basis(n);
  for (int p = 0; p < n; ++p) {
    for (int q = 0; q < n; ++q) {
      double dot = 0.0;
      for (int j = 0; j < n; ++j) dot += basis.at(p, j) * basis.at(q, j);
      EXPECT_NEAR(dot, p == q ? 1.0 : 0.0, 1e-12) << p << " " << q;
    }
    // (L·c)_j = Σ over neighbours (c_j − c_neighbour), insulated ends.
    for (int j = 0; j < n; ++j) {
      double laplacian = 0.0;
      if (j > 0) laplacian += basis.at(p, j) - basis.at(p, j - 1);
      if (j + 1 < n) laplacian += basis.at(p, j) - basis.at(p, j + 1);
      EXPECT_NEAR(laplacian, basis.laplacian_eigenvalue(p) * basis.at(p, j), 1e-12);
    }
  }
}

TEST(ThermalCosineBasis, TransformIsTheProductBasisCoefficients) {
  const CosineBasis rows(3), cols(5);
  std::vector<double> field(15);
  for (int i = 0; i < 15; ++i) field[i] = 0.3 * i - 0.05 * i * i;
  const std::vector<double> out = cosine_transform(rows, cols, field);
  for (int q = 0; q < 3; ++q) {
    for (int p = 0; p < 5; ++p) {
      double expected = 0.0;
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 5; ++j) expected += rows.at(q, i) * cols.at(p, j) * field[i * 5 + j];
      }
      EXPECT_NEAR(out[q * 5 + p], expected, 1e-12);
    }
  }
}

}  // namespace
}  // namespace polyarch::sim::thermal
