#include "reports/diff/fail_rule.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "base/config_tree.h"
#include "base/error.h"

namespace polyarch::reports {

namespace {

// Rule names and the diff metric each one reads; a report key also names its own metric.
const std::vector<std::pair<std::string, std::string>> kMetricNames = {
    {"latency", "latency_s"},      {"cycles", "total_cycles"},       {"energy", "energy_j"},
    {"power", "avg_power_w"},      {"dram_bytes", "dram_bytes"},     {"utilization", "utilization"},
    {"latency_s", "latency_s"},    {"total_cycles", "total_cycles"}, {"energy_j", "energy_j"},
    {"avg_power_w", "avg_power_w"}};

const std::vector<std::pair<std::string, std::vector<MetricUnit>>> kUnits = {
    {"latency_s", {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}}},
    {"total_cycles", {{"cycles", 1.0}}},
    {"energy_j", {{"J", 1.0}, {"mJ", 1e-3}, {"uJ", 1e-6}, {"nJ", 1e-9}, {"pJ", 1e-12}}},
    {"avg_power_w", {{"W", 1.0}, {"mW", 1e-3}, {"kW", 1e3}}},
    {"dram_bytes",
     {{"B", 1.0},
      {"kB", 1e3},
      {"MB", 1e6},
      {"GB", 1e9},
      {"KiB", 1024.0},
      {"MiB", 1048576.0},
      {"GiB", 1073741824.0}}},
    // Percentage points: utilisation is a fraction, and -2% is relative to BASE's.
    {"utilization", {{"pp", 0.01}}}};

// Differences this small relative to the values compared are rounding, not change.
constexpr double kRoundingTolerance = 1e-12;

[[noreturn]] void bad_rule(const std::string& rule, const std::string& message) {
  throw_bad_input({"--fail-on", 0, 0, ""}, "'" + rule + "': " + message);
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string metric_key_of(const std::string& name) {
  for (const auto& [rule_name, key] : kMetricNames) {
    if (rule_name == name) return key;
  }
  return "";
}

[[noreturn]] void unknown_metric(const std::string& rule, const std::string& metric) {
  std::vector<std::string> names;
  for (const auto& [rule_name, key] : kMetricNames) names.push_back(rule_name);
  std::string message = "unknown metric '" + metric + "'";
  const std::string last_part = metric.substr(metric.rfind('.') + 1);
  const std::string suggestion = nearest_spelling(last_part, names);
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  bad_rule(rule, message +
                     " (metrics: latency, cycles, energy, power, dram_bytes, utilization; "
                     "OP.METRIC for one op)");
}

std::string unit_list(const std::string& metric_key) {
  std::string list;
  for (const MetricUnit& unit : metric_units(metric_key)) {
    list.append(list.empty() ? "" : ", ").append(unit.name);
  }
  return list;
}

// "+5%", "-2%", "+2ms": the sign, an amount and a unit (% or one of the metric's units).
void parse_threshold(const std::string& threshold, FailRule& rule) {
  const std::string expected =
      "expected a signed threshold with a unit: +5% (fails when NEW "
      "rises by more than 5% of BASE), -2% (falls by more than 2%) or "
      "an amount in one of " +
      rule.metric_key + "'s units (" + unit_list(rule.metric_key) + "), e.g. +0.5" +
      metric_units(rule.metric_key).front().name;
  rule.threshold = threshold;
  if (threshold.empty() || (threshold[0] != '+' && threshold[0] != '-')) {
    bad_rule(rule.text, "threshold '" + threshold + "' has no sign; " + expected);
  }
  rule.direction = threshold[0] == '+' ? RuleDirection::kIncrease : RuleDirection::kDecrease;
  const char* begin = threshold.data() + 1;
  const char* end = threshold.data() + threshold.size();
  auto [stop, error] = std::from_chars(begin, end, rule.limit);
  if (begin == stop || error != std::errc() || !std::isfinite(rule.limit) || rule.limit < 0) {
    bad_rule(rule.text, "malformed threshold '" + threshold + "'; " + expected);
  }
  const std::string unit(stop, end);
  if (unit.empty()) {
    bad_rule(rule.text, "threshold '" + threshold + "' has no unit; " + expected);
  }
  rule.relative = unit == "%";
  if (rule.relative) return;
  for (const MetricUnit& known : metric_units(rule.metric_key)) {
    if (unit == known.name) {
      rule.limit *= known.scale;
      return;
    }
  }
  bad_rule(rule.text, "unknown unit '" + unit + "' in threshold '" + threshold + "'; " + expected);
}

FailRule parse_one_rule(const std::string& text) {
  FailRule rule;
  rule.text = text;
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos) {
    bad_rule(text, "expected METRIC:THRESHOLD, e.g. latency:+5% or utilization:-2%");
  }
  const std::string metric = trimmed(text.substr(0, colon));
  rule.metric_key = metric_key_of(metric);
  if (rule.metric_key.empty()) {
    const std::size_t dot = metric.rfind('.');
    if (dot == std::string::npos || dot == 0) unknown_metric(text, metric);
    rule.metric_key = metric_key_of(metric.substr(dot + 1));
    if (rule.metric_key.empty()) unknown_metric(text, metric);
    rule.op_name = metric.substr(0, dot);
  }
  parse_threshold(trimmed(text.substr(colon + 1)), rule);
  return rule;
}

const MetricDelta& find_metric(const std::vector<MetricDelta>& metrics, const std::string& key) {
  for (const MetricDelta& metric : metrics) {
    if (metric.key == key) return metric;
  }
  throw_runtime({}, "diff has no metric '" + key + "'");
}

bool has_op(const std::vector<UnmatchedOp>& ops, const std::string& name) {
  return std::any_of(ops.begin(), ops.end(),
                     [&](const UnmatchedOp& op) { return op.name == name; });
}

void evaluate_op_rule(const FailRule& rule, const ReportDiff& diff,
                      std::vector<RuleOutcome>& outcomes) {
  bool matched = false;
  for (const OpDelta& op : diff.ops) {
    if (op.name != rule.op_name) continue;
    matched = true;
    std::string subject = "op '" + op.name + "' on " + op.base_unit;
    if (op.next_unit != op.base_unit) subject += " -> " + op.next_unit;
    outcomes.push_back(evaluate_fail_rule(rule, subject, find_metric(op.metrics, rule.metric_key),
                                          diff.base_label, diff.next_label));
  }
  if (matched) return;
  if (has_op(diff.ops_only_in_base, rule.op_name)) {
    bad_rule(rule.text, "op '" + rule.op_name + "' is only in " + diff.base_label);
  }
  if (has_op(diff.ops_only_in_next, rule.op_name)) {
    bad_rule(rule.text, "op '" + rule.op_name + "' is only in " + diff.next_label);
  }
  bad_rule(rule.text, "no op named '" + rule.op_name + "' in either report");
}

}  // namespace

std::vector<FailRule> parse_fail_rules(const std::string& flag_value) {
  std::vector<FailRule> rules;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = flag_value.find(',', start);
    const std::string text = trimmed(flag_value.substr(start, comma - start));
    if (text.empty()) bad_rule(flag_value, "empty rule; expected METRIC:THRESHOLD");
    rules.push_back(parse_one_rule(text));
    if (comma == std::string::npos) return rules;
    start = comma + 1;
  }
}

std::vector<RuleOutcome> evaluate_fail_rules(const std::vector<FailRule>& rules,
                                             const ReportDiff& diff) {
  std::vector<RuleOutcome> outcomes;
  for (const FailRule& rule : rules) {
    if (rule.op_name.empty()) {
      outcomes.push_back(evaluate_fail_rule(rule, "summary",
                                            find_metric(diff.summary, rule.metric_key),
                                            diff.base_label, diff.next_label));
    } else {
      evaluate_op_rule(rule, diff, outcomes);
    }
  }
  return outcomes;
}

const std::vector<MetricUnit>& metric_units(const std::string& metric_key) {
  static const std::vector<MetricUnit> none;
  for (const auto& [key, units] : kUnits) {
    if (key == metric_key) return units;
  }
  return none;
}

const std::vector<std::pair<std::string, std::string>>& fail_rule_metric_names() {
  return kMetricNames;
}

RuleOutcome evaluate_fail_rule(const FailRule& rule, const std::string& subject,
                               const MetricDelta& metric, const std::string& base_label,
                               const std::string& next_label) {
  if (!metric.base || !metric.next) {
    bad_rule(rule.text, subject + " " + metric.key + " is null in " +
                            (metric.base ? next_label : base_label) + ", so it cannot be compared");
  }
  RuleOutcome outcome{rule, subject, *metric.base, *metric.next, false};
  const double change = rule.direction == RuleDirection::kIncrease ? outcome.next - outcome.base
                                                                   : outcome.base - outcome.next;
  const double allowed = rule.relative ? rule.limit / 100.0 * std::fabs(outcome.base) : rule.limit;
  const double rounding =
      kRoundingTolerance * std::max(std::fabs(outcome.base), std::fabs(outcome.next));
  outcome.failed = change > allowed + rounding;
  return outcome;
}

bool any_failed(const std::vector<RuleOutcome>& outcomes) {
  return std::any_of(outcomes.begin(), outcomes.end(),
                     [](const RuleOutcome& outcome) { return outcome.failed; });
}

}  // namespace polyarch::reports
