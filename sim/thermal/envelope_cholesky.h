#pragma once
// Cholesky factorisation of a sparse symmetric positive definite matrix in envelope (skyline)
// storage: row i keeps its entries from its first non-zero column to the diagonal, and the
// factor fills only inside that envelope (A. George & J. W. Liu, Computer Solution of Large
// Sparse Positive Definite Systems, 1981, ch. 4). Banded grids with a few dense border rows
// (a thermal grid and its package nodes) factor in O(n·band²) and solve in O(n·band).
#include <span>
#include <vector>

namespace polyarch::sim::thermal {

// One entry of the lower triangle (column <= row). Repeated entries add up.
struct SymmetricEntry {
  int row = 0;
  int column = 0;
  double value = 0.0;
};

class EnvelopeCholesky {
 public:
  // Factors the n x n matrix whose lower triangle is `entries`. A matrix that is not positive
  // definite (a node without a path to ambient) is a runtime error.
  EnvelopeCholesky(int n, std::span<const SymmetricEntry> entries);

  int size() const { return static_cast<int>(first_.size()); }
  // Solves A·x = rhs.
  std::vector<double> solve(std::span<const double> rhs) const;
  // Solves A·x = rhs for every right-hand side in one pass over the factor: the factor (tens of
  // MB for a 64 x 64 grid) is read once instead of once per side, which is what a solve costs.
  std::vector<std::vector<double>> solve_many(std::span<const std::vector<double>> rhs) const;

 private:
  double* row(int i) { return values_.data() + offset_[i] - first_[i]; }  // indexed by column
  const double* row(int i) const { return values_.data() + offset_[i] - first_[i]; }

  std::vector<int> first_;           // first stored column of each row
  std::vector<std::size_t> offset_;  // where each row starts in values_
  std::vector<double> values_;       // L, row by row, first_[i]..i
};

}  // namespace polyarch::sim::thermal
