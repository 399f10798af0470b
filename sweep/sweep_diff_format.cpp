#include "sweep/sweep_diff_format.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace polyarch::sweep {

namespace {

using OrderedJson = nlohmann::ordered_json;

std::string percent_text(const reports::MetricDelta& metric) {
  const std::optional<double> relative = metric.relative_change();
  if (!relative) return "n/a";
  char text[64];
  std::snprintf(text, sizeof text, "%+.2f%%", 100.0 * *relative + 0.0);
  return text;
}

std::string value_text(const std::optional<double>& value) {
  if (!value) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", *value);
  return text;
}

// "latency_s +1.20%, energy_j -0.50%".
std::string changes_text(const SweepResultDelta& delta) {
  std::string text;
  for (const reports::MetricDelta& metric : delta.metrics) {
    text.append(text.empty() ? "" : ", ").append(metric.key).append(" ");
    text.append(percent_text(metric));
  }
  return text;
}

// "latency_s 0.0012 -> 0.0013 (+8.33%), ...".
std::string front_text(const SweepResultDelta& delta) {
  std::string text;
  for (const reports::MetricDelta& metric : delta.metrics) {
    text.append(text.empty() ? "" : ", ").append(metric.key).append(" ");
    text.append(value_text(metric.base)).append(" -> ").append(value_text(metric.next));
    text.append(" (").append(percent_text(metric)).append(")");
  }
  return text;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text.append(text.empty() ? "" : ", ").append(name);
  return text;
}

std::string verdict(const SweepDiff& diff, const std::vector<reports::RuleOutcome>& outcomes) {
  std::string text = reports::diff_verdict(outcomes);
  if (!outcomes.empty() && !diff.only_in_base.empty()) {
    text = "result: REGRESSION (" + std::to_string(diff.only_in_base.size()) +
           " results of BASE missing from NEW; " + text.substr(text.find('(') + 1);
  }
  return text;
}

// Lines in reading order: the sweeps, each matched result's changes, the front, the unmatched.
std::vector<std::string> body_lines(const SweepDiff& diff, bool markdown) {
  std::vector<std::string> lines;
  for (const SweepResultDelta& delta : diff.front) {
    lines.push_back(delta.subject + ": " + front_text(delta));
  }
  if (!diff.left_front.empty()) lines.push_back("left the front: " + joined(diff.left_front));
  if (!diff.joined_front.empty()) {
    lines.push_back("joined the front: " + joined(diff.joined_front));
  }
  if (!diff.only_in_base.empty()) {
    lines.push_back("results only in BASE: " + joined(diff.only_in_base));
  }
  if (!diff.only_in_next.empty()) {
    lines.push_back("results only in NEW: " + joined(diff.only_in_next));
  }
  lines.push_back("results matched in both (" + std::to_string(diff.results.size()) + "):");
  for (const SweepResultDelta& delta : diff.results) {
    lines.push_back((markdown ? "" : "  ") + delta.subject + ": " + changes_text(delta));
  }
  return lines;
}

std::string render_text(const SweepDiff& diff, const std::vector<reports::RuleOutcome>& outcomes) {
  std::string text =
      "polyarch diff (sweeps)\n  BASE " + diff.base_label + "\n  NEW  " + diff.next_label + "\n\n";
  for (const std::string& line : body_lines(diff, false)) text += line + "\n";
  return text + "\n" + describe_sweep_outcomes(diff, outcomes);
}

std::string render_markdown(const SweepDiff& diff,
                            const std::vector<reports::RuleOutcome>& outcomes) {
  std::string text = "## polyarch diff (sweeps)\n\n";
  text.append("**").append(verdict(diff, outcomes)).append("**\n\n");
  std::size_t passed = 0;
  for (const reports::RuleOutcome& outcome : outcomes) {
    if (outcome.failed) {
      text.append("- **").append(reports::describe_outcome(outcome)).append("**\n");
    } else {
      ++passed;
    }
  }
  if (passed > 0) text.append("- ").append(std::to_string(passed)).append(" checks passed\n");
  text.append("\n- BASE ").append(diff.base_label).append("\n- NEW ");
  text.append(diff.next_label).append("\n\n");
  for (const std::string& line : body_lines(diff, true)) text.append("- ").append(line) += "\n";
  return text;
}

OrderedJson delta_json(const SweepResultDelta& delta) {
  OrderedJson metrics = OrderedJson::object();
  for (const reports::MetricDelta& metric : delta.metrics) {
    metrics[metric.key] = {{"base", metric.base ? OrderedJson(*metric.base) : OrderedJson()},
                           {"new", metric.next ? OrderedJson(*metric.next) : OrderedJson()}};
  }
  return {{"subject", delta.subject}, {"metrics", metrics}};
}

std::string render_json(const SweepDiff& diff, const std::vector<reports::RuleOutcome>& outcomes) {
  OrderedJson json;
  json["schema"] = kSweepDiffSchema;
  json["base"] = diff.base_label;
  json["new"] = diff.next_label;
  json["results"] = OrderedJson::array();
  for (const SweepResultDelta& delta : diff.results) json["results"].push_back(delta_json(delta));
  json["front"] = OrderedJson::array();
  for (const SweepResultDelta& delta : diff.front) json["front"].push_back(delta_json(delta));
  json["left_front"] = diff.left_front;
  json["joined_front"] = diff.joined_front;
  json["only_in_base"] = diff.only_in_base;
  json["only_in_new"] = diff.only_in_next;
  json["rules"] = OrderedJson::array();
  for (const reports::RuleOutcome& outcome : outcomes) {
    json["rules"].push_back({{"rule", outcome.rule.text},
                             {"subject", outcome.subject},
                             {"metric", outcome.rule.metric_key},
                             {"base", outcome.base},
                             {"new", outcome.next},
                             {"limit", outcome.rule.threshold},
                             {"failed", outcome.failed}});
  }
  json["regression"] = sweep_regressed(outcomes, diff);
  return json.dump(2) + "\n";
}

}  // namespace

std::string describe_sweep_outcomes(const SweepDiff& diff,
                                    const std::vector<reports::RuleOutcome>& outcomes) {
  std::string text;
  std::size_t passed = 0;
  for (const reports::RuleOutcome& outcome : outcomes) {
    if (outcome.failed) {
      text += reports::describe_outcome(outcome) + "\n";
    } else {
      ++passed;
    }
  }
  if (passed > 0) text += "ok   " + std::to_string(passed) + " checks within their limits\n";
  return text + verdict(diff, outcomes) + "\n";
}

std::string render_sweep_diff(const SweepDiff& diff,
                              const std::vector<reports::RuleOutcome>& outcomes,
                              reports::DiffFormat format) {
  switch (format) {
    case reports::DiffFormat::kJson:
      return render_json(diff, outcomes);
    case reports::DiffFormat::kMarkdown:
      return render_markdown(diff, outcomes);
    case reports::DiffFormat::kText:
      break;
  }
  return render_text(diff, outcomes);
}

}  // namespace polyarch::sweep
