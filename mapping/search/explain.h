#pragma once
// `polyarch compile --explain`: per op, every unit that can run it with its cost, the winner
// under the objective, and why it won (what bounds it, and by how much it beats the runner-up).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mapping/space/mapping_problem.h"
#include "mapping/space/objective.h"

namespace polyarch::mapping {

struct UnitOption {
  std::string unit;
  std::string kind;
  MappingCost cost;
  bool has_bound = false;  // false for kinds that give only a latency estimate
  std::string mapping;     // empty when the kind has no searched mapping
  std::string source;      // "searched (N evaluations)", "cached", "estimate"
};

struct OpExplanation {
  std::string op;
  std::string shape;
  std::vector<UnitOption> options;  // any order; the text sorts them by score
};

std::string format_explanation(const std::vector<OpExplanation>& ops, const Objective& objective);

// The same as `compile --json`'s "explain": the objective, then per op every option best first
// (unit, kind, latency_s, energy_j and bound, null for a kind that gives only a latency
// estimate, mapping, source), the chosen unit (null when none runs the op) and why it won.
nlohmann::ordered_json explanation_json(const std::vector<OpExplanation>& ops,
                                        const Objective& objective);

}  // namespace polyarch::mapping
