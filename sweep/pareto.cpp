#include "sweep/pareto.h"

namespace polyarch::sweep {

namespace {

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool better_somewhere = false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] > b[k]) return false;
    if (a[k] < b[k]) better_somewhere = true;
  }
  return better_somewhere;
}

}  // namespace

std::vector<std::size_t> pareto_front(const std::vector<std::vector<double>>& costs) {
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < costs.size(); ++i) {
    bool dominated = false;
    for (std::size_t j = 0; j < costs.size() && !dominated; ++j) {
      dominated = j != i && dominates(costs[j], costs[i]);
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

}  // namespace polyarch::sweep
