#include "sim/energy/tech_registry.h"

#include <cmath>
#include <limits>
#include <map>

#include "base/error.h"

namespace polyarch::sim {

namespace {

// "28nm" -> 28; 0 when the text is not of that form.
double feature_nm(std::string_view node) {
  if (node.size() < 3 || node.substr(node.size() - 2) != "nm") return 0.0;
  double value = 0.0;
  for (char c : node.substr(0, node.size() - 2)) {
    if (c < '0' || c > '9') return 0.0;
    value = value * 10.0 + (c - '0');
  }
  return value;
}

// Each embedded table is parsed once per process: a sweep resolves the node of every point
// (a 324-point sweep parsed the same YAML 324 times). The text is constant, so the table is too.
// Not thread-safe, like SystemC; sweeps run points in worker processes.
TechTable parse_embedded(const EmbeddedTechFile& file) {
  static std::map<const EmbeddedTechFile*, TechTable> parsed;
  auto found = parsed.find(&file);
  if (found == parsed.end()) {
    const std::string label = "configs/tech/" + std::string(file.node) + ".yaml";
    found = parsed.emplace(&file, parse_tech_table(parse_config_text(std::string(file.yaml), label)))
                .first;
  }
  return found->second;
}

}  // namespace

std::vector<std::string> tech_nodes() {
  std::vector<std::string> nodes;
  for (const EmbeddedTechFile& file : embedded_tech_files()) nodes.emplace_back(file.node);
  return nodes;
}

ResolvedTech resolve_tech_table(const std::string& technology) {
  const double wanted = feature_nm(technology);
  const EmbeddedTechFile* best = nullptr;
  double best_distance = std::numeric_limits<double>::infinity();
  for (const EmbeddedTechFile& file : embedded_tech_files()) {
    if (file.node == technology) {
      return {parse_embedded(file), technology, ""};
    }
    const double have = feature_nm(file.node);
    if (wanted <= 0.0 || have <= 0.0) continue;
    const double distance = std::abs(std::log(have / wanted));
    if (distance < best_distance) {
      best_distance = distance;
      best = &file;
    }
  }
  if (best == nullptr) {
    throw_runtime({}, "no technology table for '" + technology + "'");
  }
  ResolvedTech resolved{parse_embedded(*best), technology, ""};
  resolved.note = "technology " + technology + " has no energy table; using the nearest node, " +
                  std::string(best->node);
  return resolved;
}

}  // namespace polyarch::sim
