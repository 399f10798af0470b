#include <limits>

#include "mapping/search/ridge_ranker.h"
#include "mapping/search/searchers.h"

namespace polyarch::mapping {

SearchResult exhaustive_search(const MappingProblem& problem, const Objective& objective) {
  Evaluator evaluator(problem, objective,
                      {.seed = 0, .max_evaluations = std::numeric_limits<int64_t>::max()});
  const MappingSpace& space = problem.space();
  // Only a pure latency objective may be pruned by a latency bound: energy terms have no bound.
  const bool prune =
      objective.kind == ObjectiveKind::kLatency && !objective.power_cap_w.has_value();
  for (int64_t rank = 0; rank < space.size(); ++rank) {
    const MappingPoint point = space.unrank(rank);
    if (!problem.valid(point)) {
      ++evaluator.result().invalid_skipped;
      continue;
    }
    if (prune && evaluator.best_score() <= problem.latency_lower_bound_s(point)) {
      ++evaluator.result().pruned;
      continue;
    }
    evaluator.score(point);
  }
  return evaluator.take();
}

SearchResult run_search(const std::string& searcher, const MappingProblem& problem,
                        const Objective& objective, const SearchOptions& options) {
  if (searcher == "exhaustive") return exhaustive_search(problem, objective);
  if (searcher == "random") return random_search(problem, objective, options);
  if (searcher == "genetic") return genetic_search(problem, objective, options);
  if (searcher == "ranked") {
    RidgeRanker fresh;
    return ranked_search(problem, objective, options, fresh);
  }
  return annealing_search(problem, objective, options);
}

const std::vector<std::string>& searcher_names() {
  static const std::vector<std::string> names = {"exhaustive", "random", "genetic", "annealing",
                                                 "ranked"};
  return names;
}

}  // namespace polyarch::mapping
