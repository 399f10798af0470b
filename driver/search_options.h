#pragma once
// How a run decides the mappings of units whose kind exposes a mapping space: the searcher, the
// objective, the budget and the decision cache, as the command line spells them. The driver turns
// them into a search policy so every command that searches reads them the same way.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "mapping/cache/unit_decisions.h"

namespace polyarch::driver {

struct SearchOptions {
  std::optional<std::string> searcher;   // --search
  std::optional<std::string> objective;  // --objective
  std::optional<std::string> budget;     // --search-budget
  std::optional<std::string> cache_dir;  // --cache-dir
  bool no_cache = false;                 // --no-cache
};

// Null without a searcher (each kind's own mappings). Bad input (exit 2) for an unknown searcher,
// objective or budget, and for an objective, budget or cache option without a searcher.
std::shared_ptr<const mapping::SearchPolicy> search_policy(const SearchOptions& options,
                                                           uint64_t seed);

// `polyarch compile --explain`: the same options, the searcher defaulting to exhaustive (so the
// objective and the cache options stand alone).
std::shared_ptr<const mapping::SearchPolicy> explain_search_policy(const SearchOptions& options,
                                                                   uint64_t seed);

}  // namespace polyarch::driver
