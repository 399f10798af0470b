#pragma once
// `--mapping fixed|searched --search S [--objective O] [--search-budget N] [--cache-dir DIR | --no-cache]`: the options'
// specs and their values as the driver takes them (driver/search_options.h).
#include <vector>

#include "cli/arguments.h"
#include "driver/search_options.h"

namespace polyarch::cli {

// The options' specs, to append to a command's own.
std::vector<OptionSpec> mapping_search_option_specs();

// The options as given; the driver checks them when it makes the policy.
driver::SearchOptions mapping_search_options(const Arguments& parsed);

}  // namespace polyarch::cli
