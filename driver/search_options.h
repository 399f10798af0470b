#pragma once
// How a run decides the mappings of units whose kind exposes a mapping space: the searcher, the
// objective, the budget and the decision cache, as the command line spells them. The driver turns
// them into a search policy so every command that searches reads them the same way.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mapping/cache/unit_decisions.h"

namespace polyarch::driver {

struct SearchOptions {
  std::optional<std::string> mapping;    // --mapping fixed|searched (default searched)
  std::optional<std::string> searcher;   // --search
  std::optional<std::string> objective;  // --objective
  std::optional<std::string> budget;     // --search-budget
  std::optional<std::string> cache_dir;  // --cache-dir
  bool no_cache = false;                 // --no-cache
};

// Mapping is the compiler's job: by default every unit whose kind exposes a mapping space runs
// the searched mapping (exhaustive, unless --search names another searcher), cached on disk.
// Null for `--mapping fixed` (each unit's configured mapping: what a cycle-exact comparison with
// SCALE-Sim needs). Bad input (exit 2) for an unknown mode, searcher, objective or budget, and
// for a search option with --mapping fixed.
std::shared_ptr<const mapping::SearchPolicy> search_policy(const SearchOptions& options,
                                                           uint64_t seed);

// How a run's mappings were decided, as report.json's `mapping` says it: {"mode": "fixed"}, or
// {"mode": "searched", "searcher", "objective", "budget" (not for
// exhaustive, which visits the whole space), "cache"}.
nlohmann::ordered_json mapping_mode_json(const mapping::SearchPolicy* policy);

// `polyarch compile --explain`: the same options, the searcher defaulting to exhaustive (so the
// objective and the cache options stand alone).
std::shared_ptr<const mapping::SearchPolicy> explain_search_policy(const SearchOptions& options,
                                                                   uint64_t seed);

}  // namespace polyarch::driver
