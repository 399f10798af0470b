#pragma once
// Pareto fronts: the points no other point beats in every objective at once.
#include <cstddef>
#include <vector>

namespace polyarch::sweep {

// Indices of the non-dominated rows of `costs` (every column minimised), in input order. Row a
// dominates b when it is no worse in every column and better in one; equal rows are all kept.
// O(n^2 * objectives), fine for the thousands of points of one sweep.
std::vector<std::size_t> pareto_front(const std::vector<std::vector<double>>& costs);

}  // namespace polyarch::sweep
