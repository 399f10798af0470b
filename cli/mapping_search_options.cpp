#include "cli/mapping_search_options.h"

#include <algorithm>
#include <iostream>

#include "base/error.h"
#include "mapping/search/searchers.h"

namespace polyarch::cli {

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

}  // namespace

std::vector<OptionSpec> mapping_search_option_specs() {
  return {{"search"}, {"objective"}, {"search-budget"}, {"cache-dir"}, {"no-cache", false}};
}

namespace {

// The policy for `searcher` from the objective, budget and cache options.
std::shared_ptr<const mapping::SearchPolicy> make_policy(const Arguments& parsed,
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
  const std::string objective_text = parsed.value("objective").value_or("latency");
  const std::optional<mapping::Objective> objective = mapping::parse_objective(objective_text);
  if (!objective) {
    throw_bad_input(
        {}, "--objective " + objective_text + ": expected latency, energy, edp or weighted:L,E");
  }
  policy->objective = *objective;
  policy->options.seed = seed;
  policy->options.max_evaluations =
      parsed.value("search-budget") ? parse_budget(*parsed.value("search-budget")) : kDefaultBudget;
  if (!parsed.flag("no-cache")) {
    policy->cache = std::make_shared<mapping::DecisionCache>(
        parsed.value("cache-dir").value_or(mapping::default_cache_directory().string()),
        [](const std::string& line) { std::cerr << "warning: " << line << "\n"; });
  }
  return policy;
}

}  // namespace

std::shared_ptr<const mapping::SearchPolicy> parse_mapping_search(const Arguments& parsed,
                                                                  uint64_t seed) {
  const std::optional<std::string> searcher = parsed.value("search");
  if (!searcher) {
    for (const char* option : {"objective", "search-budget", "cache-dir", "no-cache"}) {
      if (parsed.flag(option)) throw_bad_input({}, std::string("--") + option + " needs --search");
    }
    return nullptr;
  }
  return make_policy(parsed, *searcher, seed);
}

std::shared_ptr<const mapping::SearchPolicy> parse_explain_search(const Arguments& parsed,
                                                                  uint64_t seed) {
  return make_policy(parsed, parsed.value("search").value_or("exhaustive"), seed);
}

}  // namespace polyarch::cli
