#pragma once
// One mapping decision, searched once and then read from the decision cache: what `polyarch
// compile` calls per (op, unit). A hit returns the stored point and cost without evaluating
// anything, so a repeated compile costs a file read per decision.
#include <optional>
#include <string>

#include "mapping/cache/decision_cache.h"
#include "mapping/search/searchers.h"

namespace polyarch::mapping {

struct Decision {
  MappingPoint point;
  MappingCost cost;
  std::string mapping;  // MappingSpace::describe(point)
  bool from_cache = false;
  bool pinned = false;  // SearchPolicy::pinned, not searched
  int64_t evaluations = 0;  // of the search that made it (a hit reads the count it stored)
};

// `searcher` as run_search takes it; the key's `searcher` field is filled from it and the seed.
// nullopt when the space has no valid point. `cache` may be null (always search).
std::optional<Decision> decide(const MappingProblem& problem, const Objective& objective,
                               const std::string& searcher, const SearchOptions& options,
                               DecisionKey key, const DecisionCache* cache);

}  // namespace polyarch::mapping
