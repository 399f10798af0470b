#pragma once
// `--fail-on` rules of `polyarch diff`: when a metric of NEW is a regression against BASE.
//   latency:+5%     fails when NEW's latency exceeds BASE's by more than 5 % of BASE's
//   utilization:-2% fails when NEW's utilisation falls short of BASE's by more than 2 %
//   energy:+1mJ     fails when NEW's energy exceeds BASE's by more than 1 mJ
//   ffn1.latency:+5% the same for the op named ffn1 (every matched op of that name)
// Metrics: latency, cycles, energy, power, dram_bytes, utilization (or their report keys
// latency_s, total_cycles, energy_j, avg_power_w). A threshold names its unit: % of BASE's value,
// or an amount in one of the metric's units (metric_units()); a bare number is refused, since a
// reader cannot tell +2 (seconds) from +2 (%).
#include <string>
#include <utility>
#include <vector>

#include "reports/diff/report_diff.h"

namespace polyarch::reports {

enum class RuleDirection { kIncrease, kDecrease };

struct FailRule {
  std::string text;        // as given, e.g. "latency:+5%"
  std::string threshold;   // as given, e.g. "+5%" or "+2ms"
  std::string op_name;     // empty for a summary metric
  std::string metric_key;  // a diff_metric_keys() entry
  RuleDirection direction = RuleDirection::kIncrease;
  bool relative = true;  // limit is a percentage of BASE's value; else in the metric's base unit
  double limit = 0.0;    // >= 0
};

// A unit a threshold may name for a metric, and its size in the metric's base unit (seconds,
// cycles, joules, watts, bytes, or a fraction for utilization).
struct MetricUnit {
  const char* name;
  double scale;
};
// The units of a diff metric key; empty for an unknown key.
const std::vector<MetricUnit>& metric_units(const std::string& metric_key);

// A rule's metric names and the metric key each one reads ("latency" -> "latency_s").
const std::vector<std::pair<std::string, std::string>>& fail_rule_metric_names();

struct RuleOutcome {
  FailRule rule;
  std::string subject;  // "summary" or "op 'ffn1' on mxu" (or "on mxu -> npu")
  double base = 0.0;
  double next = 0.0;  // NEW's value
  bool failed = false;
};

// Parses one --fail-on value: a rule or a comma-separated list of rules. Throws a bad-input
// polyarch::Error naming --fail-on and the rule for an unknown metric or a malformed threshold.
std::vector<FailRule> parse_fail_rules(const std::string& flag_value);

// One outcome per rule (per matched op for an op rule), in rule order. Throws a bad-input
// polyarch::Error when a rule names an op missing from either report or a metric that is null
// in one of them.
std::vector<RuleOutcome> evaluate_fail_rules(const std::vector<FailRule>& rules,
                                             const ReportDiff& diff);

// One rule against one metric of one subject ("summary", "op 'ffn1' on mxu", "point p0003");
// a metric null on either side is bad input naming the side's label.
RuleOutcome evaluate_fail_rule(const FailRule& rule, const std::string& subject,
                               const MetricDelta& metric, const std::string& base_label,
                               const std::string& next_label);

bool any_failed(const std::vector<RuleOutcome>& outcomes);

}  // namespace polyarch::reports
