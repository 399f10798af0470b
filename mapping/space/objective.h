#pragma once
// What a search minimises: latency, energy, their product (EDP) or a weighted mix of latency and
// energy normalised by reference values, with an optional average-power cap. A point over the
// cap scores +infinity, so every searcher treats it like an invalid one.
#include <optional>
#include <string>

#include "mapping/space/mapping_problem.h"

namespace polyarch::mapping {

enum class ObjectiveKind { kLatency, kEnergy, kEdp, kWeighted };

struct Objective {
  ObjectiveKind kind = ObjectiveKind::kLatency;
  // kWeighted: latency_weight * latency / latency_ref + energy_weight * energy / energy_ref.
  double latency_weight = 0.5;
  double energy_weight = 0.5;
  double latency_ref_s = 1e-3;
  double energy_ref_j = 1e-3;
  std::optional<double> power_cap_w;

  double score(const MappingCost& cost) const;
  // Stable text for cache keys and reports: "latency", "edp", "weighted(0.5,0.5)+cap(2)".
  std::string key() const;
};

// Parses "latency", "energy", "edp" or "weighted:L,E"; nullopt for anything else.
std::optional<Objective> parse_objective(const std::string& text);

}  // namespace polyarch::mapping
