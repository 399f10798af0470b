#include "sim/thermal/cosine_basis.h"

#include <cmath>
#include <numbers>

namespace polyarch::sim::thermal {

CosineBasis::CosineBasis(int n) : n_(n), values_(static_cast<std::size_t>(n) * n), eigenvalues_(n) {
  for (int p = 0; p < n; ++p) {
    const double scale = std::sqrt((p == 0 ? 1.0 : 2.0) / n);
    for (int j = 0; j < n; ++j) {
      values_[static_cast<std::size_t>(p) * n + j] =
          scale * std::cos(std::numbers::pi * p * (j + 0.5) / n);
    }
    const double s = std::sin(std::numbers::pi * p / (2.0 * n));
    eigenvalues_[p] = 4.0 * s * s;
  }
}

std::vector<double> cosine_transform(const CosineBasis& rows, const CosineBasis& cols,
                                     std::span<const double> field) {
  const int nr = rows.size(), nc = cols.size();
  // Along each row first (field row i -> coefficient p), then down the columns.
  std::vector<double> along(static_cast<std::size_t>(nr) * nc, 0.0);
  for (int i = 0; i < nr; ++i) {
    const double* line = field.data() + static_cast<std::size_t>(i) * nc;
    for (int p = 0; p < nc; ++p) {
      double sum = 0.0;
      for (int j = 0; j < nc; ++j) sum += cols.at(p, j) * line[j];
      along[static_cast<std::size_t>(i) * nc + p] = sum;
    }
  }
  std::vector<double> out(static_cast<std::size_t>(nr) * nc, 0.0);
  for (int q = 0; q < nr; ++q) {
    double* target = out.data() + static_cast<std::size_t>(q) * nc;
    for (int i = 0; i < nr; ++i) {
      const double weight = rows.at(q, i);
      const double* source = along.data() + static_cast<std::size_t>(i) * nc;
      for (int p = 0; p < nc; ++p) target[p] += weight * source[p];
    }
  }
  return out;
}

}  // namespace polyarch::sim::thermal
