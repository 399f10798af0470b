#include "mapping/cache/unit_decisions.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"

namespace polyarch::mapping {

namespace {

// Whether `description` names exactly the dimensions of `space`, each once.
bool names_the_dimensions_of(const std::string& description, const MappingSpace& space) {
  std::vector<std::string> named;
  std::istringstream words(description);
  for (std::string word; words >> word;) named.push_back(word.substr(0, word.find('=')));
  std::vector<std::string> dimensions;
  for (const Dimension& dimension : space.dimensions()) dimensions.push_back(dimension.name);
  std::sort(named.begin(), named.end());
  std::sort(dimensions.begin(), dimensions.end());
  return named == dimensions;
}

Decision pinned_decision(const MappingProblem& problem, const std::string& description) {
  const MappingPoint point = problem.space().parse(description);
  if (!problem.valid(point)) {
    throw_bad_input({}, "pinned mapping '" + description + "' is not valid for this op");
  }
  return {.point = point,
          .cost = problem.evaluate(point),
          .mapping = problem.space().describe(point),
          .pinned = true,
          .evaluations = 1};
}

}  // namespace

UnitDecisions::UnitDecisions(std::shared_ptr<const SearchPolicy> policy, std::string unit_config)
    : policy_(std::move(policy)), unit_config_(std::move(unit_config)) {}

std::optional<Decision> UnitDecisions::decide(const MappingProblem& problem,
                                              const std::string& op_shape) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (auto found = decided_.find(op_shape); found != decided_.end()) return found->second;
  if (!policy_->pinned.empty() && names_the_dimensions_of(policy_->pinned, problem.space())) {
    return decided_.emplace(op_shape, pinned_decision(problem, policy_->pinned)).first->second;
  }
  std::optional<Decision> decision = mapping::decide(
      problem, policy_->objective, policy_->searcher, policy_->options,
      {.op_shape = op_shape, .unit_config = unit_config_, .objective = {}, .searcher = {}},
      policy_->cache.get());
  decided_.emplace(op_shape, decision);
  return decision;
}

nlohmann::ordered_json decision_json(const SearchPolicy& policy, const Decision& decision) {
  return {{"searcher", decision.pinned ? std::string("pinned") : policy.searcher},
          {"objective", policy.objective.key()},
          {"point", decision.mapping},
          {"evaluations", decision.evaluations}};
}

}  // namespace polyarch::mapping
