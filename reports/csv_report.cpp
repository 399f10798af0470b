#include "reports/csv_report.h"

#include <sstream>

namespace polyarch::reports {

namespace {

// RFC 4180 quoting: layer names from user files may hold commas or quotes.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

int64_t sram_count(const sim::OpResult& op, const std::string& buffer, bool reads) {
  auto it = op.sram.find(buffer);
  if (it == op.sram.end()) return 0;
  return reads ? it->second.reads : it->second.writes;
}

}  // namespace

std::string ops_csv(const sim::RunResult& result) {
  std::ostringstream out;
  out.precision(17);
  out << "name,kind,unit,start_cycle,end_cycle,compute_cycles,stall_cycles,total_cycles,"
         "latency_s,macs,utilization,mapping_efficiency,ifmap_sram_reads,filter_sram_reads,"
         "ofmap_sram_writes,ofmap_sram_reads,dram_bytes_read,dram_bytes_written\n";
  for (const sim::OpResult& op : result.ops) {
    out << csv_field(op.name) << ',' << op.kind << ',' << csv_field(op.unit) << ','
        << op.start_cycle << ',' << op.end_cycle << ',' << op.compute_cycles << ','
        << op.stall_cycles << ',' << op.total_cycles << ',' << op.latency_s() << ',' << op.macs
        << ',' << op.utilization << ',' << op.mapping_efficiency << ','
        << sram_count(op, "ifmap", true) << ',' << sram_count(op, "filter", true) << ','
        << sram_count(op, "ofmap", false) << ',' << sram_count(op, "ofmap", true) << ','
        << op.dram_bytes_read << ',' << op.dram_bytes_written << '\n';
  }
  return out.str();
}

}  // namespace polyarch::reports
