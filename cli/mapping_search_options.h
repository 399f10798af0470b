#pragma once
// `--search S [--objective O] [--search-budget N] [--cache-dir DIR | --no-cache]`: how a run
// decides the mappings of units whose kind exposes a mapping space. Parsed here so every command
// that searches reads the options the same way.
#include <cstdint>
#include <memory>

#include "cli/arguments.h"
#include "mapping/cache/unit_decisions.h"

namespace polyarch::cli {

// The options' specs, to append to a command's own.
std::vector<OptionSpec> mapping_search_option_specs();

// Null without --search (each kind's own mappings). Bad input (exit 2) for an unknown searcher,
// objective or budget, and for --objective / --search-budget / cache options without --search.
std::shared_ptr<const mapping::SearchPolicy> parse_mapping_search(const Arguments& parsed,
                                                                  uint64_t seed);

// `polyarch compile --explain`: the same options, --search defaulting to exhaustive (so
// --objective and the cache options stand alone).
std::shared_ptr<const mapping::SearchPolicy> parse_explain_search(const Arguments& parsed,
                                                                  uint64_t seed);

}  // namespace polyarch::cli
