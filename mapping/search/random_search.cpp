#include "mapping/search/random_point.h"
#include "mapping/search/searchers.h"

namespace polyarch::mapping {

SearchResult random_search(const MappingProblem& problem, const Objective& objective,
                           const SearchOptions& options) {
  Evaluator evaluator(problem, objective, options);
  Rng rng(options.seed);
  // Redraws of already-seen points cost nothing, so bound the draws, not the evaluations, to
  // end on small spaces that the budget exceeds.
  const int64_t max_draws = options.max_evaluations * 20 + 1000;
  for (int64_t draw = 0; draw < max_draws && !evaluator.exhausted(); ++draw) {
    evaluator.score(random_point(problem.space(), rng));
  }
  return evaluator.take();
}

}  // namespace polyarch::mapping
