#pragma once
// The technology tables shipped in configs/tech/, compiled into the binary, and the choice of
// table for an SoC's `technology` key.
#include <string>
#include <string_view>
#include <vector>

#include "sim/energy/tech_table.h"

namespace polyarch::sim {

struct EmbeddedTechFile {
  std::string_view node;  // "28nm", the file's stem
  std::string_view yaml;
};

// Generated at build time from configs/tech/*.yaml (cmake/EmbedTechTables.cmake).
const std::vector<EmbeddedTechFile>& embedded_tech_files();

// Nodes with a table, e.g. {"16nm", "28nm", ...}.
std::vector<std::string> tech_nodes();

struct ResolvedTech {
  TechTable table;
  std::string requested;  // the SoC's technology key
  std::string note;       // non-empty when another node's table stands in
};

// The table for `technology` ("28nm"), read with the device sections of the models that price
// with it (parse_tech_table). A node without a table uses the nearest node with one (by ratio of
// feature sizes) and says so in `note`.
ResolvedTech resolve_tech_table(const std::string& technology,
                                const std::vector<TechDeviceSection>& device_sections);

}  // namespace polyarch::sim
