#include "mapping/search/explain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace polyarch::mapping {

namespace {

// A kind that gives only a latency estimate has no energy to compare: under any other objective
// it ranks last rather than winning with 0 J.
double option_score(const UnitOption& option, const Objective& objective) {
  if (!option.has_bound && objective.kind != ObjectiveKind::kLatency) {
    return std::numeric_limits<double>::infinity();
  }
  return objective.score(option.cost);
}

std::string option_line(const UnitOption& option, const char* tag) {
  char line[256];
  char energy[32] = "-";
  if (option.has_bound) std::snprintf(energy, sizeof energy, "%.4g J", option.cost.energy_j);
  std::snprintf(line, sizeof line, "  %-8s %-16s %-10s latency %.4g s  energy %s  bound %s", tag,
                option.unit.c_str(), option.kind.c_str(), option.cost.latency_s, energy,
                option.has_bound ? std::string(bound_name(option.cost.bound)).c_str() : "-");
  std::string text = line;
  if (!option.mapping.empty()) text += "\n           mapping " + option.mapping;
  return text + "  [" + option.source + "]\n";
}

std::string why(const std::vector<const UnitOption*>& ranked, const Objective& objective) {
  const UnitOption& winner = *ranked.front();
  std::string text = "  why: " + winner.unit;
  if (winner.has_bound) text += " is " + std::string(bound_name(winner.cost.bound)) + "-bound";
  if (ranked.size() == 1) return text + "; the only unit that runs this op\n";
  const UnitOption& second = *ranked[1];
  char line[160];
  const double ratio = option_score(second, objective) / option_score(winner, objective);
  if (std::isinf(ratio)) {
    std::snprintf(line, sizeof line, " and beats %s, which gives no %s estimate",
                  second.unit.c_str(), objective.key().c_str());
  } else {
    std::snprintf(line, sizeof line, " and beats %s by %.2fx on %s", second.unit.c_str(), ratio,
                  objective.key().c_str());
  }
  text += line;
  if (second.has_bound)
    text += " (" + second.unit + ": " + std::string(bound_name(second.cost.bound)) + "-bound)";
  return text + "\n";
}

// An op's options, best first under the objective (ties keep the order the units were given in).
std::vector<const UnitOption*> ranked_options(const OpExplanation& op, const Objective& objective) {
  std::vector<const UnitOption*> ranked;
  for (const UnitOption& option : op.options) ranked.push_back(&option);
  std::stable_sort(ranked.begin(), ranked.end(), [&](const UnitOption* a, const UnitOption* b) {
    return option_score(*a, objective) < option_score(*b, objective);
  });
  return ranked;
}

}  // namespace

std::string format_explanation(const std::vector<OpExplanation>& ops, const Objective& objective) {
  std::string text;
  for (const OpExplanation& op : ops) {
    text += "op " + op.op + " (" + op.shape + ")\n";
    const std::vector<const UnitOption*> ranked = ranked_options(op, objective);
    if (ranked.empty()) {
      text += "  no unit can run this op\n";
      continue;
    }
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      text += option_line(*ranked[i], i == 0 ? "chosen" : "alt");
    }
    text += why(ranked, objective);
  }
  return text;
}

nlohmann::ordered_json explanation_json(const std::vector<OpExplanation>& ops,
                                        const Objective& objective) {
  using Json = nlohmann::ordered_json;
  Json op_list = Json::array();
  for (const OpExplanation& op : ops) {
    const std::vector<const UnitOption*> ranked = ranked_options(op, objective);
    Json options = Json::array();
    for (const UnitOption* option : ranked) {
      options.push_back(
          {{"unit", option->unit},
           {"kind", option->kind},
           {"latency_s", option->cost.latency_s},
           {"energy_j", option->has_bound ? Json(option->cost.energy_j) : Json()},
           {"bound",
            option->has_bound ? Json(std::string(bound_name(option->cost.bound))) : Json()},
           {"mapping", option->mapping.empty() ? Json() : Json(option->mapping)},
           {"source", option->source}});
    }
    std::string reason = ranked.empty() ? "no unit can run this op" : why(ranked, objective);
    if (!ranked.empty()) reason = reason.substr(reason.find(':') + 2);  // after "  why: "
    while (!reason.empty() && reason.back() == '\n') reason.pop_back();
    op_list.push_back({{"op", op.op},
                       {"shape", op.shape},
                       {"chosen", ranked.empty() ? Json() : Json(ranked.front()->unit)},
                       {"why", reason},
                       {"options", options}});
  }
  return {{"objective", objective.key()}, {"ops", op_list}};
}

}  // namespace polyarch::mapping
