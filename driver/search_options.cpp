#include "driver/search_options.h"

#include <algorithm>
#include <iostream>

#include "base/error.h"
#include "mapping/search/searchers.h"

namespace polyarch::driver {

namespace {

constexpr int64_t kDefaultBudget = 2000;

int64_t parse_budget(const std::string& text) {
  try {
    std::size_t consumed = 0;
    const long long budget = std::stoll(text, &consumed);
    if (consumed == text.size() && budget >= 1) return budget;
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "--search-budget expects a positive integer, got '" + text + "'");
}

// The policy for `searcher` from the objective, budget and cache options.
std::shared_ptr<const mapping::SearchPolicy> make_policy(const SearchOptions& options,
                                                         const std::string& searcher,
                                                         uint64_t seed) {
  const std::vector<std::string>& names = mapping::searcher_names();
  if (std::find(names.begin(), names.end(), searcher) == names.end()) {
    std::string expected;
    for (const std::string& name : names) expected += (expected.empty() ? "" : ", ") + name;
    throw_bad_input({}, "--search " + searcher + ": expected one of " + expected);
  }
  auto policy = std::make_shared<mapping::SearchPolicy>();
  policy->searcher = searcher;
  const std::string objective_text = options.objective.value_or("latency");
  const std::optional<mapping::Objective> objective = mapping::parse_objective(objective_text);
  if (!objective) {
    throw_bad_input(
        {}, "--objective " + objective_text + ": expected latency, energy, edp or weighted:L,E");
  }
  policy->objective = *objective;
  policy->options.seed = seed;
  policy->options.max_evaluations = options.budget ? parse_budget(*options.budget) : kDefaultBudget;
  if (!options.no_cache) {
    policy->cache = std::make_shared<mapping::DecisionCache>(
        options.cache_dir.value_or(mapping::default_cache_directory().string()),
        [](const std::string& line) { std::cerr << "warning: " << line << "\n"; });
  }
  return policy;
}

}  // namespace

std::shared_ptr<const mapping::SearchPolicy> search_policy(const SearchOptions& options,
                                                           uint64_t seed) {
  const std::string mode = options.mapping.value_or("searched");
  if (mode == "searched") return make_policy(options, options.searcher.value_or("exhaustive"), seed);
  if (mode != "fixed") {
    throw_bad_input({}, "--mapping " + mode + ": expected fixed or searched");
  }
  const std::pair<bool, const char*> search_options[] = {
      {options.searcher.has_value(), "search"},
      {options.objective.has_value(), "objective"},
      {options.budget.has_value(), "search-budget"},
      {options.cache_dir.has_value(), "cache-dir"},
      {options.no_cache, "no-cache"}};
  for (const auto& [given, option] : search_options) {
    if (given) {
      throw_bad_input({}, std::string("--") + option +
                              " searches mappings, but --mapping fixed runs the configured ones");
    }
  }
  return nullptr;
}

nlohmann::ordered_json mapping_mode_json(const mapping::SearchPolicy* policy) {
  if (policy == nullptr) return {{"mode", "fixed"}};
  nlohmann::ordered_json mode = {
      {"mode", "searched"}, {"searcher", policy->searcher}, {"objective", policy->objective.key()}};
  // Exhaustive search visits the whole space whatever the budget.
  if (policy->searcher != "exhaustive") mode["budget"] = policy->options.max_evaluations;
  mode["cache"] = policy->cache != nullptr;
  return mode;
}

std::shared_ptr<const mapping::SearchPolicy> explain_search_policy(const SearchOptions& options,
                                                                   uint64_t seed) {
  if (options.mapping) {
    throw_bad_input({}, "--mapping: --explain always searches; run --mapping fixed runs the "
                        "configured mappings");
  }
  return make_policy(options, options.searcher.value_or("exhaustive"), seed);
}

}  // namespace polyarch::driver
