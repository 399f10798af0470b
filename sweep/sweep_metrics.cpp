#include "sweep/sweep_metrics.h"

#include <nlohmann/json.hpp>

#include "sweep/sweep_spec.h"

namespace polyarch::sweep {

namespace {

SqlValue optional_value(const std::optional<double>& value) {
  return value ? SqlValue(*value) : SqlValue(std::monostate{});
}

std::optional<double> weighted_utilization(const std::vector<sim::OpResult>& ops) {
  double weighted = 0.0;
  double latency = 0.0;
  for (const sim::OpResult& op : ops) {
    weighted += op.utilization * op.latency_s();
    latency += op.latency_s();
  }
  if (latency <= 0.0) return std::nullopt;
  return weighted / latency;
}

std::optional<double> tops_per_w(const sim::RunResult& result) {
  const std::optional<double> energy_j = result.summary.energy_j;
  if (!energy_j || *energy_j <= 0.0) return std::nullopt;
  double macs = 0.0;
  for (const sim::OpResult& op : result.ops) macs += static_cast<double>(op.macs);
  return 2.0 * macs / *energy_j / 1e12;
}

}  // namespace

const std::vector<std::string>& sweep_extra_metrics() {
  static const std::vector<std::string> kMetrics = {"utilization", "edp_js", "tops_per_w",
                                                    "peak_temp_c", "energy_by_action"};
  return kMetrics;
}

SqlValue result_metric(const sim::RunResult& result, const std::string& metric) {
  const sim::Summary& summary = result.summary;
  if (metric == "total_cycles") return summary.total_cycles;
  if (metric == "latency_s") return summary.latency_s;
  if (metric == "energy_j") return optional_value(summary.energy_j);
  if (metric == "avg_power_w") return optional_value(summary.avg_power_w);
  if (metric == "dram_bytes_read") return summary.dram_bytes_read;
  if (metric == "dram_bytes_written") return summary.dram_bytes_written;
  if (metric == "utilization") return optional_value(weighted_utilization(result.ops));
  if (metric == "edp_js") {
    return optional_value(summary.energy_j ? std::optional(*summary.energy_j * summary.latency_s)
                                           : std::nullopt);
  }
  if (metric == "tops_per_w") return optional_value(tops_per_w(result));
  if (metric == "peak_temp_c") return optional_value(summary.peak_temp_c);
  if (metric == "energy_by_action") {
    if (summary.energy_by_action.empty()) return std::monostate{};
    return nlohmann::json(summary.energy_by_action).dump();
  }
  return std::monostate{};
}

const char* metric_column_type(const std::string& metric) {
  if (metric == "total_cycles" || metric.rfind("dram_bytes", 0) == 0) return "INTEGER";
  if (metric == "energy_by_action") return "TEXT";
  return "REAL";
}

}  // namespace polyarch::sweep
