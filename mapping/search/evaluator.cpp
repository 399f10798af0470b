#include "mapping/search/evaluator.h"

#include <cmath>

namespace polyarch::mapping {

int64_t SearchResult::evaluations_to_reach(double target, double fraction) const {
  for (const Improvement& improvement : history) {
    if (improvement.score <= target * (1.0 + fraction)) return improvement.evaluation;
  }
  return -1;
}

std::optional<double> Evaluator::score(const MappingPoint& point) {
  const int64_t rank = problem_.space().rank(point);
  if (auto found = seen_.find(rank); found != seen_.end()) return found->second;
  if (!problem_.valid(point)) {
    ++result_.invalid_skipped;
    seen_.emplace(rank, std::numeric_limits<double>::infinity());
    return std::numeric_limits<double>::infinity();
  }
  if (exhausted()) return std::nullopt;
  const MappingCost cost = problem_.evaluate(point);
  const double value = objective_.score(cost);
  ++result_.evaluations;
  seen_.emplace(rank, value);
  result_.evaluated.push_back({point, value});
  if (value < result_.best_score) {
    result_.best_score = value;
    result_.best = point;
    result_.best_cost = cost;
    result_.history.push_back({result_.evaluations, value});
  }
  return value;
}

}  // namespace polyarch::mapping
