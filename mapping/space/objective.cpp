#include "mapping/space/objective.h"

#include <cstdio>
#include <limits>

namespace polyarch::mapping {

double Objective::score(const MappingCost& cost) const {
  if (power_cap_w && cost.average_power_w() > *power_cap_w) {
    return std::numeric_limits<double>::infinity();
  }
  switch (kind) {
    case ObjectiveKind::kLatency:
      return cost.latency_s;
    case ObjectiveKind::kEnergy:
      return cost.energy_j;
    case ObjectiveKind::kEdp:
      return cost.latency_s * cost.energy_j;
    case ObjectiveKind::kWeighted:
      return latency_weight * cost.latency_s / latency_ref_s +
             energy_weight * cost.energy_j / energy_ref_j;
  }
  return std::numeric_limits<double>::infinity();
}

std::string Objective::key() const {
  std::string text;
  char buffer[96];
  switch (kind) {
    case ObjectiveKind::kLatency:
      text = "latency";
      break;
    case ObjectiveKind::kEnergy:
      text = "energy";
      break;
    case ObjectiveKind::kEdp:
      text = "edp";
      break;
    case ObjectiveKind::kWeighted:
      std::snprintf(buffer, sizeof buffer, "weighted(%g,%g,%g,%g)", latency_weight, energy_weight,
                    latency_ref_s, energy_ref_j);
      text = buffer;
      break;
  }
  if (power_cap_w) {
    std::snprintf(buffer, sizeof buffer, "+cap(%g)", *power_cap_w);
    text += buffer;
  }
  return text;
}

std::optional<Objective> parse_objective(const std::string& text) {
  Objective objective;
  if (text == "latency") return objective;
  if (text == "energy") {
    objective.kind = ObjectiveKind::kEnergy;
    return objective;
  }
  if (text == "edp") {
    objective.kind = ObjectiveKind::kEdp;
    return objective;
  }
  double latency_weight = 0, energy_weight = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "weighted:%lf,%lf%c", &latency_weight, &energy_weight, &tail) ==
          2 &&
      latency_weight >= 0 && energy_weight >= 0) {
    objective.kind = ObjectiveKind::kWeighted;
    objective.latency_weight = latency_weight;
    objective.energy_weight = energy_weight;
    return objective;
  }
  return std::nullopt;
}

}  // namespace polyarch::mapping
