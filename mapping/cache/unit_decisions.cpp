#include "mapping/cache/unit_decisions.h"

namespace polyarch::mapping {

UnitDecisions::UnitDecisions(std::shared_ptr<const SearchPolicy> policy, std::string unit_config)
    : policy_(std::move(policy)), unit_config_(std::move(unit_config)) {}

std::optional<Decision> UnitDecisions::decide(const MappingProblem& problem,
                                              const std::string& op_shape) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (auto found = decided_.find(op_shape); found != decided_.end()) return found->second;
  std::optional<Decision> decision = mapping::decide(
      problem, policy_->objective, policy_->searcher, policy_->options,
      {.op_shape = op_shape, .unit_config = unit_config_, .objective = {}, .searcher = {}},
      policy_->cache.get());
  decided_.emplace(op_shape, decision);
  return decision;
}

nlohmann::ordered_json decision_json(const SearchPolicy& policy, const Decision& decision) {
  return {{"searcher", policy.searcher},
          {"objective", policy.objective.key()},
          {"point", decision.mapping},
          {"evaluations", decision.evaluations}};
}

}  // namespace polyarch::mapping
