#include "mapping/cache/cached_search.h"

namespace polyarch::mapping {

namespace {

Bound bound_from_name(const std::string& name) {
  for (Bound bound :
       {Bound::kCompute, Bound::kBuffer, Bound::kL2, Bound::kDram, Bound::kNoc, Bound::kLatency,
        Bound::kAdc, Bound::kReprogramming}) {
    if (bound_name(bound) == name) return bound;
  }
  return Bound::kCompute;
}

}  // namespace

std::optional<Decision> decide(const MappingProblem& problem, const Objective& objective,
                               const std::string& searcher, const SearchOptions& options,
                               DecisionKey key, const DecisionCache* cache) {
  key.objective = objective.key();
  key.searcher = searcher == "exhaustive"
                     ? searcher
                     : searcher + ":seed=" + std::to_string(options.seed) +
                           ":budget=" + std::to_string(options.max_evaluations);
  if (cache != nullptr) {
    if (std::optional<CachedDecision> hit = cache->lookup(key);
        hit && hit->point.size() == problem.space().dimension_count()) {
      return Decision{.point = hit->point,
                      .cost = {.latency_s = hit->latency_s,
                               .energy_j = hit->energy_j,
                               .bound = bound_from_name(hit->bound)},
                      .mapping = hit->mapping,
                      .from_cache = true,
                      .evaluations = hit->evaluations};
    }
  }
  const SearchResult result = run_search(searcher, problem, objective, options);
  if (!result.found()) return std::nullopt;
  Decision decision{.point = result.best,
                    .cost = result.best_cost,
                    .mapping = problem.space().describe(result.best),
                    .evaluations = result.evaluations};
  if (cache != nullptr) {
    cache->store(key, {.point = decision.point,
                       .mapping = decision.mapping,
                       .latency_s = decision.cost.latency_s,
                       .energy_j = decision.cost.energy_j,
                       .score = result.best_score,
                       .bound = std::string(bound_name(decision.cost.bound)),
                       .evaluations = decision.evaluations});
  }
  return decision;
}

}  // namespace polyarch::mapping
