#include "reports/text_table.h"

#include <cstdio>
#include <string>

namespace polyarch::reports {

namespace {

std::string format_row(const char* format, auto... values) {
  char line[256];
  std::snprintf(line, sizeof(line), format, values...);
  return line;
}

std::string truncate(const std::string& text, std::size_t width) {
  return text.size() <= width ? text : text.substr(0, width - 1) + "~";
}

}  // namespace

std::string summary_table(const sim::RunResult& result, std::size_t max_ops) {
  std::string table = format_row("%-28s %-8s %14s %14s %12s %7s %14s\n", "op", "kind",
                                 "total_cycles", "compute", "stall", "util", "dram_bytes");
  std::size_t shown = 0;
  for (const sim::OpResult& op : result.ops) {
    if (shown++ == max_ops) break;
    table += format_row("%-28s %-8s %14lld %14lld %12lld %6.1f%% %14lld\n",
                        truncate(op.name, 28).c_str(), op.kind.c_str(),
                        static_cast<long long>(op.total_cycles),
                        static_cast<long long>(op.compute_cycles),
                        static_cast<long long>(op.stall_cycles), 100.0 * op.utilization,
                        static_cast<long long>(op.dram_bytes_read + op.dram_bytes_written));
  }
  if (result.ops.size() > max_ops) {
    table += format_row("... %zu more ops in ops.csv\n", result.ops.size() - max_ops);
  }
  const sim::Summary& summary = result.summary;
  table += format_row("total: %lld cycles at %.3f GHz = %.6g s, DRAM %lld B read, %lld B written\n",
                      static_cast<long long>(summary.total_cycles), summary.clock_ghz,
                      summary.latency_s, static_cast<long long>(summary.dram_bytes_read),
                      static_cast<long long>(summary.dram_bytes_written));
  return table;
}

std::string skipped_ops_text(const sim::RunResult& result, std::size_t max_ops) {
  if (result.skipped_ops.empty()) return "";
  int64_t macs = 0;
  int64_t bytes = 0;
  for (const sim::SkippedOp& op : result.skipped_ops) macs += op.macs, bytes += op.bytes;
  char line[256];
  std::snprintf(line, sizeof line,
                "skipped %zu op(s) no unit supports (%lld MACs, %lld bytes; not simulated):\n",
                result.skipped_ops.size(), static_cast<long long>(macs),
                static_cast<long long>(bytes));
  std::string text = line;
  for (std::size_t i = 0; i < result.skipped_ops.size() && i < max_ops; ++i) {
    const sim::SkippedOp& op = result.skipped_ops[i];
    std::snprintf(line, sizeof line, "  %-12s %14lld MACs %12lld bytes  ", op.kind.c_str(),
                  static_cast<long long>(op.macs), static_cast<long long>(op.bytes));
    text += line + op.name + "\n";
  }
  if (result.skipped_ops.size() > max_ops) {
    text += "  ... and " + std::to_string(result.skipped_ops.size() - max_ops) + " more\n";
  }
  return text;
}

}  // namespace polyarch::reports
