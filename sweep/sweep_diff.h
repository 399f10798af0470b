#pragma once
// `polyarch diff` of two sweeps: each read from its results database (results.sqlite, a shard's
// database, or the sweep's output directory) or its points.csv; results matched by (point id,
// workload); --fail-on rules checked on every matched result and on the best value the Pareto
// front reaches for each workload. Rendering is in sweep_diff_format.h.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/diff/fail_rule.h"
#include "reports/diff/report_diff.h"

namespace polyarch::sweep {

// One sweep's results as the diff reads them.
struct SweepResults {
  std::string label;                    // the path as given
  std::vector<std::string> parameters;  // parameter columns (key paths), in table order
  struct Row {
    std::string point_id;
    std::string workload;
    std::vector<std::string> parameter_values;  // as text, in `parameters` order
    // Values by diff metric key (reports::diff_metric_keys()), for the metrics the sweep
    // kept; nullopt where the result has null.
    std::map<std::string, std::optional<double>> metrics;
    bool on_front = false;
  };
  std::vector<Row> rows;   // sorted by point id, then workload
  bool has_front = false;  // the sweep had objectives (its pareto column is not empty)
};

// Whether `path` holds sweep results rather than a report: a SQLite database, a .csv file, or a
// directory with results.sqlite.
bool is_sweep_results(const std::filesystem::path& path);

// Reads a sweep's results; a missing file, a database that is not a sweep's or a CSV without
// point_id and workload columns is bad input naming the file.
SweepResults load_sweep_results(const std::filesystem::path& path);

struct SweepResultDelta {
  std::string subject;  // "point p0003 on bert_base" or "Pareto front on bert_base"
  std::vector<reports::MetricDelta> metrics;
};

struct SweepDiff {
  std::string base_label;
  std::string next_label;
  std::vector<SweepResultDelta> results;  // matched (point, workload) pairs
  std::vector<std::string> only_in_base;  // "p0003 on bert_base"
  std::vector<std::string> only_in_next;
  // Per workload, the best value over each side's front: the smallest, or the largest for
  // utilization. Empty when either sweep has no front.
  std::vector<SweepResultDelta> front;
  std::vector<std::string> left_front;    // point ids on BASE's front and not on NEW's
  std::vector<std::string> joined_front;  // on NEW's front and not on BASE's
};

// Matches the results by (point id, workload). A matched point whose parameters differ (another
// sweep file, or the same ids over other values) is bad input unless `allow_different`.
SweepDiff diff_sweeps(const SweepResults& base, const SweepResults& next, bool allow_different);

// Whether NEW regressed: a rule failed, or rules were given and a result of BASE is missing
// from NEW (a point that failed to simulate must not pass the gate by its absence).
bool sweep_regressed(const std::vector<reports::RuleOutcome>& outcomes, const SweepDiff& diff);

// Every rule on every matched result and on the front. Op rules (OP.METRIC) and metrics the
// sweeps did not keep are bad input naming the rule.
std::vector<reports::RuleOutcome> evaluate_sweep_rules(const std::vector<reports::FailRule>& rules,
                                                       const SweepDiff& diff);

}  // namespace polyarch::sweep
