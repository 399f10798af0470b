#pragma once
// The orthonormal cosine (DCT-II) basis of a line of n cells: the eigenvectors of the line's
// Laplacian with insulated ends, c_p(j) = s_p·cos(π·p·(j + ½)/n) with s_0 = √(1/n), s_p = √(2/n),
// eigenvalues 4·sin²(π·p/(2n)) (G. Strang, "The discrete cosine transform", SIAM Review 41(1),
// 1999). A uniform grid layer's lateral conductance matrix is diagonal in the products of two.
#include <span>
#include <vector>

namespace polyarch::sim::thermal {

class CosineBasis {
 public:
  explicit CosineBasis(int n);

  int size() const { return n_; }
  double at(int p, int j) const { return values_[static_cast<std::size_t>(p) * n_ + j]; }
  // Eigenvalue of the unit-conductance line Laplacian for mode p.
  double laplacian_eigenvalue(int p) const { return eigenvalues_[p]; }

 private:
  int n_ = 0;
  std::vector<double> values_;  // mode-major
  std::vector<double> eigenvalues_;
};

// Coefficients of a rows x cols field (row-major) in the product basis: out[q·cols + p] =
// Σ_i Σ_j rows(q, i)·cols(p, j)·field[i·cols + j]. O(rows·cols·(rows + cols)).
std::vector<double> cosine_transform(const CosineBasis& rows, const CosineBasis& cols,
                                     std::span<const double> field);

}  // namespace polyarch::sim::thermal
