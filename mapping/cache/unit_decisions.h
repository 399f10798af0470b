#pragma once
// Mapping decisions of one unit during one run (`polyarch run --search S`): a unit kind that
// exposes a mapping space asks here, per op, for the point its searcher chose. The first ask for
// an op shape searches (or reads the decision cache on disk); later asks in the same run, e.g.
// the simulator after the list scheduler's estimate, reuse it from memory, so a shape is
// decided once per run and the report says whether that decision came from disk.
#include <map>
#include <nlohmann/json.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "mapping/cache/cached_search.h"

namespace polyarch::mapping {

// How a run decides mappings: the searcher as run_search names it ("exhaustive", "random",
// "genetic", "annealing", "ranked"), its seed and budget, the objective, and the cache
// (null: search every shape once per run and store nothing).
struct SearchPolicy {
  std::string searcher = "exhaustive";
  SearchOptions options;
  Objective objective;
  std::shared_ptr<const DecisionCache> cache;
  // A point as MappingSpace::describe writes it ("partition=columns"): every op whose space has
  // exactly the dimensions it names runs that point, priced by the objective but not searched
  // (to simulate one mapping against another); other ops are searched. Empty: search every op.
  std::string pinned;
};

class UnitDecisions {
 public:
  // `unit_config` is the unit's canonical description (its describe() JSON), part of every key.
  UnitDecisions(std::shared_ptr<const SearchPolicy> policy, std::string unit_config);

  // The decision for the op described by `op_shape` over `problem`'s space; nullopt when the
  // space has no valid point. Thread-safe (a sweep runs units on several threads).
  std::optional<Decision> decide(const MappingProblem& problem, const std::string& op_shape);
  const SearchPolicy& policy() const { return *policy_; }

 private:
  std::shared_ptr<const SearchPolicy> policy_;
  std::string unit_config_;
  std::mutex mutex_;
  std::map<std::string, std::optional<Decision>> decided_;
};

// How a decision was made, for an op's `mapping.search` in the report: searcher, objective, the
// chosen point as the space describes it, and the evaluations of the search that made it. Not
// whether it was read from the cache: a report depends on its inputs only, so a warm cache and
// a cold one give the same bytes (`compile --explain` says which decisions were cached).
nlohmann::ordered_json decision_json(const SearchPolicy& policy, const Decision& decision);

}  // namespace polyarch::mapping
