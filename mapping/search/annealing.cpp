#include <cmath>

#include "mapping/search/random_point.h"
#include "mapping/search/searchers.h"

namespace polyarch::mapping {

namespace {

// Consecutive steps that evaluate nothing new (revisits and invalid points are free) after which
// the walk has seen its whole neighbourhood: it restarts from a fresh random point. Without
// this a walk trapped in a small basin spins on memoised points until its step limit, leaving
// most of the budget unspent (bert_ffn1 on the systolic space: ~100 of 300 evaluations).
constexpr int64_t kStagnantSteps = 64;

MappingPoint neighbour(const MappingPoint& point, const MappingSpace& space, Rng& rng) {
  MappingPoint next = point;
  const std::size_t dimension = rng.below(point.size());
  const auto count = static_cast<uint32_t>(space.dimensions()[dimension].values.size());
  if (count <= 1) return next;
  // Mostly a step to an adjacent value (tile sizes are ordered), sometimes a jump, so that
  // unordered dimensions (dataflow) are crossed as easily as ordered ones.
  if (rng.chance(0.2)) {
    next[dimension] = static_cast<uint32_t>(rng.below(count));
  } else if (next[dimension] == 0 || (next[dimension] + 1 < count && rng.chance(0.5))) {
    ++next[dimension];
  } else {
    --next[dimension];
  }
  return next;
}

}  // namespace

SearchResult annealing_search(const MappingProblem& problem, const Objective& objective,
                              const SearchOptions& options) {
  Evaluator evaluator(problem, objective, options);
  Rng rng(options.seed);
  MappingPoint current;
  double current_score = 0;
  // A walk starts (and restarts) at a random valid point with a finite score.
  auto start_walk = [&]() {
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::optional<MappingPoint> start = random_valid_point(problem, rng);
      if (!start) return false;
      std::optional<double> score = evaluator.score(*start);
      if (!score) return false;
      if (std::isfinite(*score)) {
        current = std::move(*start);
        current_score = *score;
        return true;
      }
    }
    return false;
  };
  if (!start_walk()) return evaluator.take();
  // Temperatures are relative score changes: accept a 10% worse point with probability ~1/e at
  // the start, ~1/e for a 0.1% worse one at the end.
  const double start_temperature = 0.1, end_temperature = 0.001;
  const int64_t max_steps = options.max_evaluations * 20 + 1000;
  int64_t stagnant_steps = 0;
  for (int64_t step = 0; step < max_steps && !evaluator.exhausted(); ++step) {
    const double progress = static_cast<double>(evaluator.result().evaluations) /
                            static_cast<double>(std::max<int64_t>(1, options.max_evaluations));
    const double temperature =
        start_temperature * std::pow(end_temperature / start_temperature, progress);
    MappingPoint candidate = neighbour(current, problem.space(), rng);
    const int64_t evaluations_before = evaluator.result().evaluations;
    std::optional<double> score = evaluator.score(candidate);
    if (!score) break;
    stagnant_steps = evaluator.result().evaluations > evaluations_before ? 0 : stagnant_steps + 1;
    if (stagnant_steps >= kStagnantSteps) {
      stagnant_steps = 0;
      if (!start_walk()) break;
      continue;
    }
    if (!std::isfinite(*score)) continue;
    const double change = (*score - current_score) / current_score;
    if (change <= 0 || rng.chance(std::exp(-change / temperature))) {
      current = std::move(candidate);
      current_score = *score;
    }
  }
  return evaluator.take();
}

}  // namespace polyarch::mapping
