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

// The section names, devices and entries: what a parsed table depends on besides its text.
std::string sections_signature(const std::vector<TechDeviceSection>& device_sections) {
  std::string signature;
  for (const TechDeviceSection& section : device_sections) {
    signature += section.name + ":";
    for (const std::string& device : section.devices) signature += device + ",";
    signature += "/";
    for (const std::string& entry : section.entries) signature += entry + ",";
    signature += ";";
  }
  return signature;
}

// Each embedded table is parsed once per process: a sweep resolves the node of every point
// (a 324-point sweep parsed the same YAML 324 times). The text is constant, so the table is too.
// Not thread-safe, like SystemC; sweeps run points in worker processes.
TechTable parse_embedded(const EmbeddedTechFile& file,
                         const std::vector<TechDeviceSection>& device_sections) {
  static std::map<std::pair<const EmbeddedTechFile*, std::string>, TechTable> parsed;
  const auto key = std::pair{&file, sections_signature(device_sections)};
  auto found = parsed.find(key);
  if (found == parsed.end()) {
    const std::string label = "configs/tech/" + std::string(file.node) + ".yaml";
    const ConfigNode root = parse_config_text(std::string(file.yaml), label);
    found = parsed.emplace(key, parse_tech_table(root, device_sections)).first;
  }
  return found->second;
}

}  // namespace

std::vector<std::string> tech_nodes() {
  std::vector<std::string> nodes;
  for (const EmbeddedTechFile& file : embedded_tech_files()) nodes.emplace_back(file.node);
  return nodes;
}

ResolvedTech resolve_tech_table(const std::string& technology,
                                const std::vector<TechDeviceSection>& device_sections) {
  const double wanted = feature_nm(technology);
  const EmbeddedTechFile* best = nullptr;
  double best_distance = std::numeric_limits<double>::infinity();
  for (const EmbeddedTechFile& file : embedded_tech_files()) {
    if (file.node == technology) {
      return {parse_embedded(file, device_sections), technology, ""};
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
  ResolvedTech resolved{parse_embedded(*best, device_sections), technology, ""};
  resolved.note = "technology " + technology + " has no energy table; using the nearest node, " +
                  std::string(best->node);
  return resolved;
}

}  // namespace polyarch::sim
