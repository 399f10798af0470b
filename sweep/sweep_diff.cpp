#include "sweep/sweep_diff.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <tuple>

#include "base/error.h"
#include "base/path_exists.h"
#include "reports/csv_writer.h"
#include "sweep/sqlite_db.h"
#include "sweep/sweep_export.h"

namespace polyarch::sweep {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_sqlite_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  return in.gcount() == sizeof magic && std::string(magic, sizeof magic - 1) == "SQLite format 3";
}

std::optional<double> number_of(const std::string& text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::string text_of(const SqlValue& value) {
  if (const int64_t* integer = std::get_if<int64_t>(&value)) return std::to_string(*integer);
  if (const double* real = std::get_if<double>(&value)) return reports::csv_number(*real);
  if (const std::string* text = std::get_if<std::string>(&value)) return *text;
  return "";
}

// A table of text cells (points.csv, or points_table read back as text) as results: the
// parameters are the columns between point_id and area_mm2, the metrics the diff metrics kept
// (dram_bytes being read + written).
SweepResults results_of(const std::string& label, const std::vector<std::string>& columns,
                        const std::vector<std::vector<std::string>>& cells) {
  auto index_of = [&](const std::string& name) -> std::optional<std::size_t> {
    const auto found = std::find(columns.begin(), columns.end(), name);
    if (found == columns.end()) return std::nullopt;
    return static_cast<std::size_t>(found - columns.begin());
  };
  const auto point = index_of("point_id");
  const auto workload = index_of("workload");
  const auto area = index_of("area_mm2");
  if (!point || !workload || !area || *area < *point) {
    throw_bad_input({label, 1, 0, ""},
                    "not a polyarch sweep's points: expected the columns point_id, the "
                    "parameters, area_mm2 and workload (as points.csv has them)");
  }
  SweepResults results{label, {}, {}, false};
  for (std::size_t i = *point + 1; i < *area; ++i) results.parameters.push_back(columns[i]);
  const auto pareto = index_of("pareto");
  const auto read = index_of("dram_bytes_read");
  const auto written = index_of("dram_bytes_written");
  for (std::size_t r = 0; r < cells.size(); ++r) {
    const std::vector<std::string>& row = cells[r];
    if (row.size() != columns.size()) {
      throw_bad_input({label, static_cast<int>(r) + 2, 0, ""},
                      "expected " + std::to_string(columns.size()) + " fields, found " +
                          std::to_string(row.size()));
    }
    SweepResults::Row result{row[*point], row[*workload], {}, {}, false};
    for (std::size_t i = *point + 1; i < *area; ++i) result.parameter_values.push_back(row[i]);
    for (const std::string& key : reports::diff_metric_keys()) {
      if (const auto column = index_of(key)) result.metrics[key] = number_of(row[*column]);
    }
    if (read && written) {
      const auto bytes_read = number_of(row[*read]);
      const auto bytes_written = number_of(row[*written]);
      result.metrics["dram_bytes"] =
          bytes_read && bytes_written ? std::optional(*bytes_read + *bytes_written) : std::nullopt;
    }
    if (pareto && !row[*pareto].empty()) {
      results.has_front = true;
      result.on_front = row[*pareto] == "1";
    }
    results.rows.push_back(std::move(result));
  }
  std::sort(results.rows.begin(), results.rows.end(), [](const auto& a, const auto& b) {
    return std::tie(a.point_id, a.workload) < std::tie(b.point_id, b.workload);
  });
  return results;
}

SweepResults database_results(const std::string& label, const fs::path& file) {
  SqliteDatabase db(file);
  if (table_columns(db, "results").empty() || table_columns(db, "points").empty()) {
    throw_bad_input({label, 0, 0, ""}, "not a polyarch sweep database (no results table)");
  }
  const ResultTable table = points_table(db);
  std::vector<std::vector<std::string>> cells;
  for (const std::vector<SqlValue>& row : table.rows) {
    std::vector<std::string> texts;
    for (const SqlValue& value : row) texts.push_back(text_of(value));
    cells.push_back(std::move(texts));
  }
  return results_of(label, table.columns, cells);
}

SweepResults csv_results(const std::string& label, const fs::path& file) {
  std::vector<std::vector<std::string>> records;
  try {
    records = reports::parse_csv(read_text(file));
  } catch (const std::runtime_error& error) {
    throw_bad_input({label, 0, 0, ""}, std::string("not a CSV file: ") + error.what());
  }
  if (records.empty()) throw_bad_input({label, 0, 0, ""}, "empty CSV file");
  const std::vector<std::string> columns = records.front();
  records.erase(records.begin());
  return results_of(label, columns, records);
}

std::string result_name(const SweepResults::Row& row) {
  return row.point_id + " on " + row.workload;
}

std::vector<reports::MetricDelta> metric_deltas(
    const std::map<std::string, std::optional<double>>& base,
    const std::map<std::string, std::optional<double>>& next) {
  std::vector<reports::MetricDelta> deltas;
  for (const std::string& key : reports::diff_metric_keys()) {
    const auto in_base = base.find(key);
    const auto in_next = next.find(key);
    if (in_base == base.end() || in_next == next.end()) continue;
    deltas.push_back({key, in_base->second, in_next->second});
  }
  return deltas;
}

// Per workload, each metric's best value over the front's points: the smallest, or the largest
// for utilization (the one metric where more is better).
std::map<std::string, std::map<std::string, std::optional<double>>> front_best(
    const SweepResults& results) {
  std::map<std::string, std::map<std::string, std::optional<double>>> best;
  for (const SweepResults::Row& row : results.rows) {
    if (!row.on_front) continue;
    auto& values = best[row.workload];
    for (const auto& [key, value] : row.metrics) {
      auto& slot = values[key];
      if (!value) continue;
      const bool better = !slot || (key == "utilization" ? *value > *slot : *value < *slot);
      if (better) slot = value;
    }
  }
  return best;
}

std::set<std::string> front_ids(const SweepResults& results) {
  std::set<std::string> ids;
  for (const SweepResults::Row& row : results.rows) {
    if (row.on_front) ids.insert(row.point_id);
  }
  return ids;
}

void compare_parameters(const SweepResults& base, const SweepResults& next,
                        const SweepResults::Row& base_row, const SweepResults::Row& next_row) {
  if (base.parameters != next.parameters) {
    throw_bad_input({next.label, 0, 0, ""},
                    "the sweeps have different parameters, so their point ids name different "
                    "points; pass --allow-different to compare them anyway");
  }
  for (std::size_t i = 0; i < base.parameters.size(); ++i) {
    if (base_row.parameter_values[i] == next_row.parameter_values[i]) continue;
    throw_bad_input({next.label, 0, 0, ""}, "point " + base_row.point_id + " has " +
                                                base.parameters[i] + " = " +
                                                base_row.parameter_values[i] + " in " + base.label +
                                                " but " + next_row.parameter_values[i] +
                                                " here; pass --allow-different to "
                                                "compare the points by id anyway");
  }
}

}  // namespace

bool is_sweep_results(const fs::path& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) return path_exists(path / "results.sqlite");
  return path.extension() == ".csv" || is_sqlite_file(path);
}

SweepResults load_sweep_results(const fs::path& path) {
  const std::string label = path.string();
  std::error_code error;
  const fs::path file = fs::is_directory(path, error) ? path / "results.sqlite" : path;
  if (!path_exists(file)) throw_bad_input({file.string(), 0, 0, ""}, "no such file");
  return file.extension() == ".csv" ? csv_results(label, file) : database_results(label, file);
}

SweepDiff diff_sweeps(const SweepResults& base, const SweepResults& next, bool allow_different) {
  SweepDiff diff{base.label, next.label, {}, {}, {}, {}, {}, {}};
  std::size_t b = 0;
  std::size_t n = 0;
  while (b < base.rows.size() || n < next.rows.size()) {
    const bool take_base =
        n == next.rows.size() ||
        (b < base.rows.size() && std::tie(base.rows[b].point_id, base.rows[b].workload) <
                                     std::tie(next.rows[n].point_id, next.rows[n].workload));
    const bool take_next =
        b == base.rows.size() ||
        (n < next.rows.size() && std::tie(next.rows[n].point_id, next.rows[n].workload) <
                                     std::tie(base.rows[b].point_id, base.rows[b].workload));
    if (take_base) {
      diff.only_in_base.push_back(result_name(base.rows[b++]));
    } else if (take_next) {
      diff.only_in_next.push_back(result_name(next.rows[n++]));
    } else {
      if (!allow_different) compare_parameters(base, next, base.rows[b], next.rows[n]);
      diff.results.push_back({"point " + result_name(base.rows[b]),
                              metric_deltas(base.rows[b].metrics, next.rows[n].metrics)});
      ++b;
      ++n;
    }
  }
  if (diff.results.empty() && !base.rows.empty() && !next.rows.empty()) {
    throw_bad_input({next.label, 0, 0, ""}, "no (point id, workload) result of " + base.label +
                                                " is in this sweep: nothing to compare");
  }
  if (base.has_front && next.has_front) {
    const auto base_best = front_best(base);
    const auto next_best = front_best(next);
    for (const auto& [workload, values] : base_best) {
      const auto found = next_best.find(workload);
      if (found == next_best.end()) continue;
      diff.front.push_back({"Pareto front on " + workload, metric_deltas(values, found->second)});
    }
    const std::set<std::string> base_front = front_ids(base);
    const std::set<std::string> next_front = front_ids(next);
    std::set_difference(base_front.begin(), base_front.end(), next_front.begin(), next_front.end(),
                        std::back_inserter(diff.left_front));
    std::set_difference(next_front.begin(), next_front.end(), base_front.begin(), base_front.end(),
                        std::back_inserter(diff.joined_front));
  }
  return diff;
}

bool sweep_regressed(const std::vector<reports::RuleOutcome>& outcomes, const SweepDiff& diff) {
  return reports::any_failed(outcomes) || (!outcomes.empty() && !diff.only_in_base.empty());
}

std::vector<reports::RuleOutcome> evaluate_sweep_rules(const std::vector<reports::FailRule>& rules,
                                                       const SweepDiff& diff) {
  std::vector<reports::RuleOutcome> outcomes;
  for (const reports::FailRule& rule : rules) {
    if (!rule.op_name.empty()) {
      throw_bad_input({"--fail-on", 0, 0, ""},
                      "'" + rule.text +
                          "': a sweep keeps no per-op results to check "
                          "(use a metric such as latency:+5%, checked on every point)");
    }
    bool checked = false;
    for (const std::vector<SweepResultDelta>* deltas : {&diff.results, &diff.front}) {
      for (const SweepResultDelta& delta : *deltas) {
        for (const reports::MetricDelta& metric : delta.metrics) {
          if (metric.key != rule.metric_key) continue;
          outcomes.push_back(reports::evaluate_fail_rule(rule, delta.subject, metric,
                                                         diff.base_label, diff.next_label));
          checked = true;
        }
      }
    }
    if (!checked && !diff.results.empty()) {
      throw_bad_input({"--fail-on", 0, 0, ""}, "'" + rule.text + "': the sweeps do not both keep " +
                                                   rule.metric_key +
                                                   " (add it to the sweep file's keep:)");
    }
  }
  return outcomes;
}

}  // namespace polyarch::sweep
