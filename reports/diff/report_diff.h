#pragma once
// `polyarch diff`: the comparison of two report.json documents (schema polyarch.report/1), a pure
// function of the two JSON values. Rendering is in diff_format.h, --fail-on rules in fail_rule.h.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace polyarch::reports {

// One metric in BASE and in NEW. A value is absent where the report has null (energy of a unit
// kind without an energy model) or the metric is undefined (power of an op of zero latency).
struct MetricDelta {
  std::string key;  // latency_s, total_cycles, energy_j, avg_power_w, dram_bytes, utilization, ...
  std::optional<double> base;
  std::optional<double> next;  // the value in NEW

  // next - base; absent unless both are present.
  std::optional<double> absolute_change() const;
  // (next - base) / |base|; absent unless both are present and base is non-zero (0 when both are
  // zero).
  std::optional<double> relative_change() const;
};

// The same metrics the summary has, in the same order, for one op matched in both reports.
struct OpDelta {
  std::string name;
  std::string base_unit;
  std::string next_unit;  // differs from base_unit when the op moved to another unit
  std::vector<MetricDelta> metrics;
};

struct UnitDelta {
  std::string name;
  std::vector<MetricDelta> metrics;  // busy_cycles, utilization, energy_j
};

// An op present in one report only.
struct UnmatchedOp {
  std::string name;
  std::string unit;
};

struct ReportDiff {
  std::string base_label;  // what the reports are called in messages (their file names)
  std::string next_label;
  std::string base_arch;  // provenance.arch_name and workload_name, empty when absent
  std::string next_arch;
  std::string base_workload;
  std::string next_workload;
  // latency_s, total_cycles, energy_j, avg_power_w, dram_bytes (read + written) and utilization
  // (ops' utilization weighted by their latency_s).
  std::vector<MetricDelta> summary;
  std::vector<OpDelta> ops;  // sorted by name, then unit
  std::vector<UnmatchedOp> ops_only_in_base;
  std::vector<UnmatchedOp> ops_only_in_next;
  std::vector<UnitDelta> units;  // sorted by name
  std::vector<std::string> units_only_in_base;
  std::vector<std::string> units_only_in_next;
};

// The metric keys of the summary and of every op, in reporting order.
const std::vector<std::string>& diff_metric_keys();

// Compares two report.json values. Ops are matched by name; among ops of the same name, those on
// the same unit pair first, then the rest in report order. Units are matched by name. Throws a
// bad-input polyarch::Error naming the label and key path when a value is not a
// polyarch.report/1 document.
ReportDiff diff_reports(const nlohmann::json& base, const nlohmann::json& next,
                        const std::string& base_label = "BASE",
                        const std::string& next_label = "NEW");

}  // namespace polyarch::reports
