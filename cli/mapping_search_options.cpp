#include "cli/mapping_search_options.h"

namespace polyarch::cli {

std::vector<OptionSpec> mapping_search_option_specs() {
  return {{"mapping"}, {"search"}, {"objective"}, {"search-budget"}, {"cache-dir"}, {"no-cache", false}};
}

driver::SearchOptions mapping_search_options(const Arguments& parsed) {
  return {parsed.value("mapping"), parsed.value("search"), parsed.value("objective"), parsed.value("search-budget"),
          parsed.value("cache-dir"), parsed.flag("no-cache")};
}

}  // namespace polyarch::cli
