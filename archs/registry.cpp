#include "archs/registry.h"

#include "archs/crossbar/kind.h"
#include "archs/dataflow/kind.h"
#include "archs/mimd/kind.h"
#include "archs/pim/kind.h"
#include "archs/simd/kind.h"
#include "archs/systolic/kind.h"

namespace polyarch::archs {

const std::vector<UnitKindEntry>& unit_kinds() {
  static const std::vector<UnitKindEntry> kinds = {
      {"systolic", systolic::parse_unit_config},
      {"simd", simd::parse_unit_config},
      {"mimd", mimd::parse_unit_config},
      {"pim", pim::parse_unit_config},
      {"crossbar", crossbar::parse_unit_config},
      {"dataflow", dataflow::parse_unit_config},
  };
  return kinds;
}

const UnitKindEntry* find_unit_kind(const std::string& kind) {
  for (const UnitKindEntry& entry : unit_kinds()) {
    if (entry.kind == kind) return &entry;
  }
  return nullptr;
}

std::vector<std::string> unit_kind_names() {
  std::vector<std::string> names;
  for (const UnitKindEntry& entry : unit_kinds()) names.push_back(entry.kind);
  return names;
}

}  // namespace polyarch::archs
