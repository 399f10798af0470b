#include "reports/compare_table.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "reports/csv_writer.h"

namespace polyarch::reports {

namespace {

// What the comparison reads from one run besides its summary.
struct RunFigures {
  double flops = 0.0;
  double mean_utilization = 0.0;
  std::string bound = "-";         // the bound that held for the most cycles
  std::string busiest_unit = "-";  // the unit with the most busy cycles
  std::string dtype = "-";         // the types the ops ran in, "+"-joined in op order
  std::string converted;           // "fp32->int8 (N ops)", ...; empty when nothing converted
  std::string mapping = "-";       // the longest op's mapping
};

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

// The longest op's mapping in a few words: the searched point where a search chose it, else
// the first few plain values the kind reports (its configured mapping).
std::string mapping_summary(const sim::OpResult& op) {
  std::string text = op.name + ": ";
  if (op.mapping.contains("search") && op.mapping["search"].contains("point")) {
    return text + op.mapping["search"]["point"].get<std::string>();
  }
  int shown = 0;
  for (const auto& [key, value] : op.mapping.items()) {
    if (shown == 3) break;
    if (!value.is_primitive() || value.is_null()) continue;
    text += (shown++ == 0 ? "" : " ") + key + "=" +
            (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return shown == 0 ? text + "configured" : text;
}

RunFigures figures_of(const sim::RunResult& result) {
  RunFigures figures;
  double utilization_sum = 0.0;
  std::map<std::string, int64_t> cycles_by_bound;
  std::vector<std::string> dtypes;              // in op order, each once
  std::map<std::string, int64_t> conversions;  // "fp32->int8" -> ops
  const sim::OpResult* longest_op = nullptr;
  for (const sim::OpResult& op : result.ops) {
    if (!op.dtype.empty() && std::find(dtypes.begin(), dtypes.end(), op.dtype) == dtypes.end()) {
      dtypes.push_back(op.dtype);
    }
    if (!op.converted_from.empty()) ++conversions[op.converted_from + "->" + op.dtype];
    if (!longest_op || op.total_cycles > longest_op->total_cycles) longest_op = &op;
    figures.flops += 2.0 * static_cast<double>(op.macs);
    utilization_sum += op.utilization;
    if (!op.bound.empty()) cycles_by_bound[op.bound] += op.total_cycles;
  }
  if (!result.ops.empty()) {
    figures.mean_utilization = utilization_sum / static_cast<double>(result.ops.size());
  }
  if (!dtypes.empty()) figures.dtype = joined(dtypes, "+");
  std::vector<std::string> converted;
  for (const auto& [conversion, ops] : conversions) {
    converted.push_back(conversion + " (" + std::to_string(ops) + " ops)");
  }
  figures.converted = joined(converted, ", ");
  if (longest_op) figures.mapping = mapping_summary(*longest_op);
  int64_t longest = -1;
  for (const auto& [bound, cycles] : cycles_by_bound) {
    if (cycles > longest) figures.bound = bound, longest = cycles;
  }
  int64_t busiest = -1;
  for (const sim::UnitResult& unit : result.units) {
    if (unit.busy_cycles > busiest) figures.busiest_unit = unit.name, busiest = unit.busy_cycles;
  }
  return figures;
}

std::string arch_label(const CompareEntry& entry) {
  return entry.result ? entry.result->provenance.arch_name
                      : std::filesystem::path(entry.arch_file).stem().string();
}

std::string optional_text(const std::optional<double>& value, const char* format) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, *value);
  return text;
}

}  // namespace

std::string compare_text(const std::vector<CompareEntry>& entries) {
  char line[512];
  std::snprintf(line, sizeof line, "%-24s %-10s %12s %12s %10s %12s %9s %14s %-10s %-12s %s\n",
                "arch", "dtype", "latency_s", "energy_j", "avg_w", "TFLOP/s", "mean_util",
                "dram_bytes", "bound", "busiest unit", "mapping (longest op)");
  std::string text = line;
  std::string notes;
  for (const CompareEntry& entry : entries) {
    if (!entry.result) {
      text += arch_label(entry) + "  could not run the workload (" + entry.arch_file +
              "): " + entry.error + "\n";
      continue;
    }
    const sim::RunResult& result = *entry.result;
    const RunFigures figures = figures_of(result);
    const double seconds = result.summary.latency_s;
    if (!figures.converted.empty()) {
      notes += "* " + arch_label(entry) + ": converted " + figures.converted +
               ": its units compute only the type they ran\n";
    }
    const std::string dtype = figures.dtype + (figures.converted.empty() ? "" : "*");
    std::snprintf(line, sizeof line,
                  "%-24s %-10s %12.6g %12s %10s %12.4g %8.1f%% %14lld %-10s %-12s %s\n",
                  arch_label(entry).c_str(), dtype.c_str(), seconds,
                  optional_text(result.summary.energy_j, "%.4g").c_str(),
                  optional_text(result.summary.avg_power_w, "%.4g").c_str(),
                  seconds > 0 ? figures.flops / seconds / 1e12 : 0.0,
                  100.0 * figures.mean_utilization,
                  static_cast<long long>(result.summary.dram_bytes_read +
                                         result.summary.dram_bytes_written),
                  figures.bound.c_str(), figures.busiest_unit.c_str(), figures.mapping.c_str());
    text += line;
  }
  return text + notes;
}

std::string compare_csv(const std::string& workload, const std::vector<CompareEntry>& entries) {
  std::string csv =
      "arch,workload,latency_s,total_cycles,clock_ghz,energy_j,avg_power_w,flops,"
      "attained_flops_per_s,dram_bytes,mean_utilization,bound,busiest_unit,error,dtype,"
      "converted,mapping\n";
  for (const CompareEntry& entry : entries) {
    if (!entry.result) {
      // One line per row: the error's detail lines join its first with "; ".
      std::string error = entry.error;
      for (std::size_t at = error.find("\n  "); at != std::string::npos; at = error.find("\n  ")) {
        error.replace(at, 3, "; ");
      }
      csv += csv_row({csv_field(arch_label(entry)), csv_field(workload), "", "", "", "", "", "",
                      "", "", "", "", "", csv_field(error), "", "", ""});
      continue;
    }
    const sim::RunResult& result = *entry.result;
    const RunFigures figures = figures_of(result);
    const double seconds = result.summary.latency_s;
    char row[512];
    std::snprintf(row, sizeof(row), "%s,\"%s\",%.9g,%lld,%.6g,%s,%s,%.9g,%.9g,%lld,%.6g,%s,%s,",
                  result.provenance.arch_name.c_str(), workload.c_str(), seconds,
                  static_cast<long long>(result.summary.total_cycles), result.summary.clock_ghz,
                  result.summary.energy_j ? std::to_string(*result.summary.energy_j).c_str() : "",
                  result.summary.avg_power_w ? std::to_string(*result.summary.avg_power_w).c_str()
                                             : "",
                  figures.flops, seconds > 0 ? figures.flops / seconds : 0.0,
                  static_cast<long long>(result.summary.dram_bytes_read +
                                         result.summary.dram_bytes_written),
                  figures.mean_utilization, figures.bound.c_str(), figures.busiest_unit.c_str());
    csv += row;
    csv += csv_row({csv_field(figures.dtype), csv_field(figures.converted),
                    csv_field(figures.mapping)});
  }
  return csv;
}

}  // namespace polyarch::reports
