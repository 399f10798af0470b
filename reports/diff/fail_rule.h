#pragma once
// `--fail-on` rules of `polyarch diff`: when a metric of NEW is a regression against BASE.
//   latency:+5%     fails when NEW's latency exceeds BASE's by more than 5 % of BASE's
//   utilization:-2% fails when NEW's utilisation falls short of BASE's by more than 2 %
//   energy:+0.001   fails when NEW's energy exceeds BASE's by more than 0.001 (the metric's unit)
//   ffn1.latency:+5% the same for the op named ffn1 (every matched op of that name)
// Metrics: latency, cycles, energy, power, dram_bytes, utilization (or their report keys
// latency_s, total_cycles, energy_j, avg_power_w).
#include <string>
#include <vector>

#include "reports/diff/report_diff.h"

namespace polyarch::reports {

enum class RuleDirection { kIncrease, kDecrease };

struct FailRule {
  std::string text;        // as given, e.g. "latency:+5%"
  std::string op_name;     // empty for a summary metric
  std::string metric_key;  // a diff_metric_keys() entry
  RuleDirection direction = RuleDirection::kIncrease;
  bool relative = true;  // limit is a percentage of BASE's value; else in the metric's unit
  double limit = 0.0;    // >= 0
};

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

bool any_failed(const std::vector<RuleOutcome>& outcomes);

}  // namespace polyarch::reports
