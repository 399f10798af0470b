#include "reports/csv_report.h"

#include "reports/csv_writer.h"

namespace polyarch::reports {

namespace {

int64_t sram_count(const sim::OpResult& op, const std::string& buffer, bool reads) {
  auto it = op.sram.find(buffer);
  if (it == op.sram.end()) return 0;
  return reads ? it->second.reads : it->second.writes;
}

}  // namespace

std::string ops_csv(const sim::RunResult& result) {
  // Columns only ever get appended (energy_j, bound, dtype, converted_from came after v1's first release), so
  // readers that index by position keep working.
  std::string csv = csv_row({"name",
                             "kind",
                             "unit",
                             "start_cycle",
                             "end_cycle",
                             "compute_cycles",
                             "stall_cycles",
                             "total_cycles",
                             "latency_s",
                             "macs",
                             "compute_utilization",
                             "mapping_efficiency",
                             "ifmap_sram_reads",
                             "filter_sram_reads",
                             "ofmap_sram_writes",
                             "ofmap_sram_reads",
                             "dram_bytes_read",
                             "dram_bytes_written",
                             "energy_j",
                             "bound",
                             "dtype",
                             "converted_from"});
  for (const sim::OpResult& op : result.ops) {
    csv += csv_row({csv_field(op.name),
                    csv_field(op.kind),
                    csv_field(op.unit),
                    csv_number(op.start_cycle),
                    csv_number(op.end_cycle),
                    csv_number(op.compute_cycles),
                    csv_number(op.stall_cycles),
                    csv_number(op.total_cycles),
                    csv_number(op.latency_s()),
                    csv_number(op.macs),
                    csv_number(op.utilization),
                    csv_number(op.mapping_efficiency),
                    csv_number(sram_count(op, "ifmap", true)),
                    csv_number(sram_count(op, "filter", true)),
                    csv_number(sram_count(op, "ofmap", false)),
                    csv_number(sram_count(op, "ofmap", true)),
                    csv_number(op.dram_bytes_read),
                    csv_number(op.dram_bytes_written),
                    csv_number(op.energy_j),
                    csv_field(op.bound),
                    csv_field(op.dtype),
                    csv_field(op.converted_from)});
  }
  return csv;
}

}  // namespace polyarch::reports
