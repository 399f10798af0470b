#pragma once
// The unit kinds polyarch knows. Adding a kind adds one line to registry.cpp.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "archs/kind_adapter.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"
#include "sim/energy/tech_registry.h"

namespace polyarch::archs {

// Parses one `units[]` entry of this kind; `name` and `kind` have been read already, the parser
// reads the rest (MapReader::finish is called by the caller afterwards).
using UnitParser =
    std::function<std::unique_ptr<UnitConfig>(MapReader& unit_reader, const std::string& name)>;

struct UnitKindEntry {
  std::string kind;
  UnitParser parse;
  // The kind's YAML keys (name, type, unit, default, range, doc).
  const KeyTable* keys = nullptr;
  // The activation order the kind's convolution engine reads best (UnitConfig::
  // preferred_conv_layout), for help texts that name the kinds.
  ir::Layout conv_layout = ir::Layout::kNchw;
};

const std::vector<UnitKindEntry>& unit_kinds();
const UnitKindEntry* find_unit_kind(const std::string& kind);
std::vector<std::string> unit_kind_names();

// The technology-table sections the kinds price with (the crossbar's cells): what a tech file
// must define besides the table's own keys.
const std::vector<sim::TechDeviceSection>& tech_device_sections();
// The technology table for `technology` ("28nm"), read with those sections.
sim::ResolvedTech resolve_tech(const std::string& technology);

// Rejects keys of a unit that its kind does not declare, then MapReader::finish.
void finish_unit_keys(MapReader& unit_reader, const UnitKindEntry& kind);

}  // namespace polyarch::archs
