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

// "+5%", "-2%", "+0.001".
void parse_threshold(const std::string& threshold, FailRule& rule) {
  const char* expected =
      "expected a signed threshold such as +5% (fails when NEW rises by more than 5%), -2% "
      "(fails when it falls by more than 2%) or +0.001 (an amount in the metric's unit)";
  if (threshold.empty() || (threshold[0] != '+' && threshold[0] != '-')) {
    bad_rule(rule.text, "threshold '" + threshold + "' has no sign; " + expected);
  }
  rule.direction = threshold[0] == '+' ? RuleDirection::kIncrease : RuleDirection::kDecrease;
  rule.relative = threshold.back() == '%';
  const char* begin = threshold.data() + 1;
  const char* end = threshold.data() + threshold.size() - (rule.relative ? 1 : 0);
  auto [stop, error] = std::from_chars(begin, end, rule.limit);
  if (begin == end || error != std::errc() || stop != end || !std::isfinite(rule.limit) ||
      rule.limit < 0) {
    bad_rule(rule.text, "malformed threshold '" + threshold + "'; " + expected);
  }
}

FailRule parse_one_rule(const std::string& text) {
  FailRule rule;
  rule.text = text;
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos) {
    bad_rule(text, "expected METRIC:THRESHOLD, e.g. latency:+5% or utilization:-2%");
  }
  const std::string metric = trimmed(text.substr(0, colon));
  parse_threshold(trimmed(text.substr(colon + 1)), rule);
  rule.metric_key = metric_key_of(metric);
  if (!rule.metric_key.empty()) return rule;
  const std::size_t dot = metric.rfind('.');
  if (dot == std::string::npos || dot == 0) unknown_metric(text, metric);
  rule.metric_key = metric_key_of(metric.substr(dot + 1));
  if (rule.metric_key.empty()) unknown_metric(text, metric);
  rule.op_name = metric.substr(0, dot);
  return rule;
}

RuleOutcome evaluate(const FailRule& rule, const std::string& subject, const MetricDelta& metric,
                     const ReportDiff& diff) {
  if (!metric.base || !metric.next) {
    bad_rule(rule.text, subject + " " + metric.key + " is null in " +
                            (metric.base ? diff.next_label : diff.base_label) +
                            ", so it cannot be compared");
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
    outcomes.push_back(evaluate(rule, subject, find_metric(op.metrics, rule.metric_key), diff));
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
      outcomes.push_back(
          evaluate(rule, "summary", find_metric(diff.summary, rule.metric_key), diff));
    } else {
      evaluate_op_rule(rule, diff, outcomes);
    }
  }
  return outcomes;
}

bool any_failed(const std::vector<RuleOutcome>& outcomes) {
  return std::any_of(outcomes.begin(), outcomes.end(),
                     [](const RuleOutcome& outcome) { return outcome.failed; });
}

}  // namespace polyarch::reports
