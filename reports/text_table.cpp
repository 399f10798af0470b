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

}  // namespace polyarch::reports
