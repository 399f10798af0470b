#include "archs/registry.h"

#include "archs/crossbar/cell_tech.h"
#include "archs/crossbar/line_energy.h"
#include "archs/crossbar/kind.h"
#include "archs/dataflow/kind.h"
#include "archs/mimd/kind.h"
#include "archs/pim/kind.h"
#include "archs/simd/kind.h"
#include "archs/systolic/kind.h"

namespace polyarch::archs {

namespace {

template <class Kind>
UnitKindEntry kind_entry() {
  return {std::string(Kind::kName), parse_unit<Kind>, &Kind::keys(), conv_layout_of<Kind>()};
}

}  // namespace

const std::vector<UnitKindEntry>& unit_kinds() {
  static const std::vector<UnitKindEntry> kinds = {
      kind_entry<systolic::SystolicKind>(), kind_entry<simd::SimdKind>(),
      kind_entry<mimd::MimdKind>(),         kind_entry<pim::PimKind>(),
      kind_entry<crossbar::CrossbarKind>(), kind_entry<dataflow::DataflowKind>(),
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

const std::vector<sim::TechDeviceSection>& tech_device_sections() {
  static const std::vector<sim::TechDeviceSection> sections = {crossbar::cell_tech_section(),
                                                                crossbar::line_tech_section()};
  return sections;
}

sim::ResolvedTech resolve_tech(const std::string& technology) {
  return sim::resolve_tech_table(technology, tech_device_sections());
}

void finish_unit_keys(MapReader& unit_reader, const UnitKindEntry& kind) {
  finish_with_table(unit_reader, *kind.keys, "");
}

}  // namespace polyarch::archs
