#include "driver/registry_names.h"

#include "archs/registry.h"
#include "compiler/passes/registry.h"
#include "mapping/search/searchers.h"

namespace polyarch::driver {

std::string unit_kind_list() {
  std::string kinds;
  for (const std::string& kind : archs::unit_kind_names()) {
    kinds += (kinds.empty() ? "" : ", ") + kind;
  }
  return kinds;
}

std::string unit_kinds_preferring(ir::Layout layout) {
  std::string kinds;
  for (const archs::UnitKindEntry& entry : archs::unit_kinds()) {
    if (entry.conv_layout == layout) kinds += (kinds.empty() ? "" : ", ") + entry.kind;
  }
  return kinds;
}

std::string searcher_list() {
  std::string names;
  for (const std::string& name : mapping::searcher_names()) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return names;
}

std::string pass_list_help() { return passes::pass_registry_help(); }

}  // namespace polyarch::driver
