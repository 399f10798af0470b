#include "reports/diff/diff_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace polyarch::reports {

namespace {

using Row = std::vector<std::string>;
using OrderedJson = nlohmann::ordered_json;

// A table both text and Markdown render: the first `text_columns` columns are names (left
// aligned), the rest numbers (right aligned).
struct Table {
  std::string title;
  Row header;
  std::vector<Row> rows;
  std::size_t text_columns = 1;
};

// Integers in full (cycles, bytes), anything else to six significant digits. Adding 0.0 turns
// -0 into 0 so that no "-0" appears.
std::string format_number(double value, bool with_sign = false) {
  char text[64];
  const bool integral = std::fabs(value) < 1e15 && value == std::trunc(value);
  const char* format = integral ? (with_sign ? "%+.0f" : "%.0f") : (with_sign ? "%+.6g" : "%.6g");
  std::snprintf(text, sizeof text, format, value + 0.0);
  return text;
}

std::string format_optional(const std::optional<double>& value, bool with_sign = false) {
  return value ? format_number(*value, with_sign) : "-";
}

std::string format_percent(const std::optional<double>& fraction) {
  if (!fraction) return "n/a";
  char text[64];
  std::snprintf(text, sizeof text, "%+.2f%%", 100.0 * *fraction + 0.0);
  return text;
}

Row metric_cells(const MetricDelta& metric) {
  return {metric.key, format_optional(metric.base), format_optional(metric.next),
          format_optional(metric.absolute_change(), true),
          format_percent(metric.relative_change())};
}

const Row kMetricHeader = {"metric", "base", "new", "change", "change %"};

Row with_prefix(Row prefix, const Row& rest) {
  prefix.insert(prefix.end(), rest.begin(), rest.end());
  return prefix;
}

std::string unit_move(const std::string& base_unit, const std::string& next_unit) {
  return base_unit == next_unit ? base_unit : base_unit + " -> " + next_unit;
}

std::vector<Table> diff_tables(const ReportDiff& diff) {
  Table summary{"summary", kMetricHeader, {}, 1};
  for (const MetricDelta& metric : diff.summary) summary.rows.push_back(metric_cells(metric));
  Table ops{"ops matched in both (" + std::to_string(diff.ops.size()) + ")",
            with_prefix({"op", "unit"}, kMetricHeader),
            {},
            3};
  for (const OpDelta& op : diff.ops) {
    for (std::size_t i = 0; i < op.metrics.size(); ++i) {
      Row prefix = i == 0 ? Row{op.name, unit_move(op.base_unit, op.next_unit)} : Row{"", ""};
      ops.rows.push_back(with_prefix(prefix, metric_cells(op.metrics[i])));
    }
  }
  Table units{"units matched in both (" + std::to_string(diff.units.size()) + ")",
              with_prefix({"unit"}, kMetricHeader),
              {},
              2};
  for (const UnitDelta& unit : diff.units) {
    for (std::size_t i = 0; i < unit.metrics.size(); ++i) {
      units.rows.push_back(with_prefix({i == 0 ? unit.name : ""}, metric_cells(unit.metrics[i])));
    }
  }
  return {summary, ops, units};
}

std::string op_list(const std::vector<UnmatchedOp>& ops) {
  std::string text;
  for (const UnmatchedOp& op : ops)
    text += (text.empty() ? "" : ", ") + op.name + " (" + op.unit + ")";
  return text;
}

std::string name_list(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// "ops only in BASE: a (mxu), b (mxu)" lines for whatever is unmatched.
std::vector<std::string> unmatched_lines(const ReportDiff& diff) {
  std::vector<std::string> lines;
  if (!diff.ops_only_in_base.empty()) {
    lines.push_back("ops only in BASE: " + op_list(diff.ops_only_in_base));
  }
  if (!diff.ops_only_in_next.empty()) {
    lines.push_back("ops only in NEW: " + op_list(diff.ops_only_in_next));
  }
  if (!diff.units_only_in_base.empty()) {
    lines.push_back("units only in BASE: " + name_list(diff.units_only_in_base));
  }
  if (!diff.units_only_in_next.empty()) {
    lines.push_back("units only in NEW: " + name_list(diff.units_only_in_next));
  }
  return lines;
}

std::string report_line(const std::string& role, const std::string& label, const std::string& arch,
                        const std::string& workload) {
  std::string line = role + " " + label;
  if (!arch.empty() || !workload.empty()) line += " (arch " + arch + ", workload " + workload + ")";
  return line;
}

std::string threshold_text(const FailRule& rule) { return rule.threshold; }

std::string pad(const std::string& text, std::size_t width, bool left) {
  const std::string fill(width > text.size() ? width - text.size() : 0, ' ');
  return left ? text + fill : fill + text;
}

std::string text_table(const Table& table) {
  std::vector<std::size_t> widths(table.header.size(), 0);
  auto measure = [&](const Row& row) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  };
  measure(table.header);
  for (const Row& row : table.rows) measure(row);
  auto line = [&](const Row& row) {
    std::string text = " ";
    for (std::size_t c = 0; c < row.size(); ++c) {
      text.append(" ").append(pad(row[c], widths[c], c < table.text_columns));
    }
    text.erase(text.find_last_not_of(' ') + 1);
    return text + "\n";
  };
  if (table.rows.empty()) return table.title + "\n  none\n";
  std::string text = table.title + "\n" + line(table.header);
  for (const Row& row : table.rows) text += line(row);
  return text;
}

std::string render_text(const ReportDiff& diff, const std::vector<RuleOutcome>& outcomes) {
  std::string text = "polyarch diff\n";
  text.append("  ").append(
      report_line("BASE", diff.base_label, diff.base_arch, diff.base_workload));
  text.append("\n  ").append(
      report_line("NEW ", diff.next_label, diff.next_arch, diff.next_workload));
  text.append("\n");
  for (const Table& table : diff_tables(diff)) text.append("\n").append(text_table(table));
  const std::vector<std::string> unmatched = unmatched_lines(diff);
  if (!unmatched.empty()) text += "\n";
  for (const std::string& line : unmatched) text += line + "\n";
  text.append("\n").append(describe_outcomes(outcomes));
  return text;
}

std::string markdown_cell(const std::string& text) {
  std::string cell;
  for (char c : text) cell += c == '|' ? std::string("\\|") : std::string(1, c);
  return cell;
}

std::string markdown_table(const Table& table) {
  auto line = [](const Row& row) {
    std::string text = "|";
    for (const std::string& cell : row) text.append(" ").append(markdown_cell(cell)).append(" |");
    return text + "\n";
  };
  if (table.rows.empty()) return "### " + table.title + "\n\nnone\n";
  std::string text = "### " + table.title + "\n\n" + line(table.header) + "|";
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    text += c < table.text_columns ? " :-- |" : " --: |";
  }
  text += "\n";
  for (const Row& row : table.rows) text += line(row);
  return text;
}

// The verdict and the rules come first: a CI summary page shows its top lines.
std::string render_markdown(const ReportDiff& diff, const std::vector<RuleOutcome>& outcomes) {
  // Built with append(): GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string text = "## polyarch diff\n\n";
  text.append("**").append(diff_verdict(outcomes)).append("**\n\n");
  auto bullet = [&text](const std::string& line) { text.append("- ").append(line).append("\n"); };
  for (const RuleOutcome& outcome : outcomes) {
    const std::string line = markdown_cell(describe_outcome(outcome));
    bullet(outcome.failed ? std::string("**").append(line).append("**") : line);
  }
  if (!outcomes.empty()) text += "\n";
  bullet(markdown_cell(report_line("BASE", diff.base_label, diff.base_arch, diff.base_workload)));
  bullet(markdown_cell(report_line("NEW", diff.next_label, diff.next_arch, diff.next_workload)));
  for (const Table& table : diff_tables(diff)) text.append("\n").append(markdown_table(table));
  const std::vector<std::string> unmatched = unmatched_lines(diff);
  if (!unmatched.empty()) text += "\n";
  for (const std::string& line : unmatched) bullet(markdown_cell(line));
  return text;
}

OrderedJson optional_json(const std::optional<double>& value) {
  return value ? OrderedJson(*value) : OrderedJson(nullptr);
}

OrderedJson metrics_json(const std::vector<MetricDelta>& metrics) {
  OrderedJson json = OrderedJson::object();
  for (const MetricDelta& metric : metrics) {
    const std::optional<double> relative = metric.relative_change();
    json[metric.key] = {
        {"base", optional_json(metric.base)},
        {"new", optional_json(metric.next)},
        {"change", optional_json(metric.absolute_change())},
        {"change_percent", optional_json(relative ? std::optional(100.0 * *relative) : relative)}};
  }
  return json;
}

OrderedJson unmatched_json(const std::vector<UnmatchedOp>& ops) {
  OrderedJson json = OrderedJson::array();
  for (const UnmatchedOp& op : ops) json.push_back({{"name", op.name}, {"unit", op.unit}});
  return json;
}

OrderedJson outcome_json(const RuleOutcome& outcome) {
  return {{"rule", outcome.rule.text},
          {"subject", outcome.subject},
          {"metric", outcome.rule.metric_key},
          {"base", outcome.base},
          {"new", outcome.next},
          {"limit", threshold_text(outcome.rule)},
          {"failed", outcome.failed}};
}

std::string render_json(const ReportDiff& diff, const std::vector<RuleOutcome>& outcomes) {
  OrderedJson json;
  json["schema"] = kDiffSchema;
  json["base"] = {{"file", diff.base_label},
                  {"arch_name", diff.base_arch},
                  {"workload_name", diff.base_workload}};
  json["new"] = {{"file", diff.next_label},
                 {"arch_name", diff.next_arch},
                 {"workload_name", diff.next_workload}};
  json["summary"] = metrics_json(diff.summary);
  json["ops"] = OrderedJson::array();
  for (const OpDelta& op : diff.ops) {
    json["ops"].push_back({{"name", op.name},
                           {"base_unit", op.base_unit},
                           {"new_unit", op.next_unit},
                           {"metrics", metrics_json(op.metrics)}});
  }
  json["ops_only_in_base"] = unmatched_json(diff.ops_only_in_base);
  json["ops_only_in_new"] = unmatched_json(diff.ops_only_in_next);
  json["units"] = OrderedJson::array();
  for (const UnitDelta& unit : diff.units) {
    json["units"].push_back({{"name", unit.name}, {"metrics", metrics_json(unit.metrics)}});
  }
  json["units_only_in_base"] = diff.units_only_in_base;
  json["units_only_in_new"] = diff.units_only_in_next;
  json["rules"] = OrderedJson::array();
  for (const RuleOutcome& outcome : outcomes) json["rules"].push_back(outcome_json(outcome));
  json["regression"] = any_failed(outcomes);
  return json.dump(2) + "\n";
}

}  // namespace

std::string describe_outcome(const RuleOutcome& outcome) {
  const MetricDelta metric{outcome.rule.metric_key, outcome.base, outcome.next};
  const std::optional<double> relative = metric.relative_change();
  std::string change = format_number(outcome.next - outcome.base, true);
  if (relative) change += ", " + format_percent(relative);
  return std::string(outcome.failed ? "FAIL " : "ok   ") + outcome.rule.text + ": " +
         outcome.subject + " " + outcome.rule.metric_key + " went from " +
         format_number(outcome.base) + " (BASE) to " + format_number(outcome.next) + " (NEW), " +
         change + (outcome.failed ? ", more than the " : ", within the ") +
         threshold_text(outcome.rule) + " allowed";
}

std::string diff_verdict(const std::vector<RuleOutcome>& outcomes) {
  if (outcomes.empty()) return "result: no --fail-on rules given";
  const auto failed = std::count_if(outcomes.begin(), outcomes.end(),
                                    [](const RuleOutcome& outcome) { return outcome.failed; });
  if (failed == 0)
    return "result: no regression (" + std::to_string(outcomes.size()) + " checks passed)";
  return "result: REGRESSION (" + std::to_string(failed) + " of " +
         std::to_string(outcomes.size()) + " checks failed)";
}

std::string describe_outcomes(const std::vector<RuleOutcome>& outcomes) {
  std::string text;
  for (const RuleOutcome& outcome : outcomes) text += describe_outcome(outcome) + "\n";
  return text + diff_verdict(outcomes) + "\n";
}

std::string render_diff(const ReportDiff& diff, const std::vector<RuleOutcome>& outcomes,
                        DiffFormat format) {
  switch (format) {
    case DiffFormat::kJson:
      return render_json(diff, outcomes);
    case DiffFormat::kMarkdown:
      return render_markdown(diff, outcomes);
    case DiffFormat::kText:
      break;
  }
  return render_text(diff, outcomes);
}

}  // namespace polyarch::reports
