#include "reports/json_report.h"

#include <gtest/gtest.h>

namespace polyarch::reports {
namespace {

sim::RunResult sample_result() {
  sim::RunResult result;
  result.summary.total_cycles = 1000;
  result.summary.latency_s = 1e-6;
  sim::OpResult op;
  op.name = "conv1";
  op.kind = "conv2d";
  op.unit = "mxu";
  op.unit_clock_ghz = 1.0;
  op.start_cycle = 0;
  op.end_cycle = 1000;
  op.total_cycles = 1000;
  op.compute_cycles = 800;
  op.stall_cycles = 200;
  op.dram_bytes_read = 4000;
  op.sram["ifmap"] = {10, 0};
  result.ops.push_back(op);
  sim::UnitResult unit;
  unit.name = "mxu";
  unit.kind = "systolic";
  unit.clock_ghz = 1.0;
  unit.busy_cycles = 800;
  unit.total_cycles = 1000;
  unit.utilization = 0.8;
  result.units.push_back(unit);
  result.provenance.arch_sha256 = "ab";
  return result;
}

TEST(JsonReport, CarriesEveryStableKeyOfSchemaV1) {
  nlohmann::ordered_json report = report_json(sample_result());
  EXPECT_EQ(report["schema"], "polyarch.report/1");
  for (const char* key : {"total_cycles", "latency_s", "energy_j", "avg_power_w", "peak_temp_c"}) {
    EXPECT_TRUE(report["summary"].contains(key)) << key;
  }
  for (const char* key :
       {"name", "kind", "unit", "start_cycle", "end_cycle", "latency_s", "compute_cycles",
        "stall_cycles", "total_cycles", "macs", "compute_utilization", "mapping_efficiency",
        "dram_bytes_read", "dram_bytes_written", "energy_j", "mapping"}) {
    EXPECT_TRUE(report["ops"][0].contains(key)) << key;
  }
  for (const char* key : {"name", "kind", "busy_cycles", "busy_fraction", "energy_j"}) {
    EXPECT_TRUE(report["units"][0].contains(key)) << key;
  }
  // Two meanings, two names: neither object says "utilization" any more.
  EXPECT_FALSE(report["ops"][0].contains("utilization"));
  EXPECT_FALSE(report["units"][0].contains("utilization"));
  for (const char* key : {"polyarch_version", "arch_sha256", "workload_sha256", "seed"}) {
    EXPECT_TRUE(report["provenance"].contains(key)) << key;
  }
}

TEST(JsonReport, ReportsLatencyFromCyclesAndClockAndAverageBandwidth) {
  nlohmann::ordered_json op = report_json(sample_result())["ops"][0];
  EXPECT_DOUBLE_EQ(op["latency_s"].get<double>(), 1e-6);
  EXPECT_DOUBLE_EQ(op["avg_dram_bandwidth_gbps"].get<double>(), 4.0);
  EXPECT_TRUE(op["energy_j"].is_null());
}

TEST(JsonReport, SumsMacsByTheTypeEachOpRanIn) {
  sim::RunResult result = sample_result();
  result.ops[0].macs = 100;
  result.ops[0].dtype = "bf16";
  sim::OpResult fp8 = result.ops[0];
  fp8.macs = 50;
  fp8.dtype = "fp8_e4m3";
  sim::OpResult more_bf16 = fp8;
  more_bf16.macs = 7;
  more_bf16.dtype = "bf16";
  sim::OpResult no_macs = fp8;
  no_macs.macs = 0;
  no_macs.dtype = "fp32";
  result.ops.insert(result.ops.end(), {fp8, more_bf16, no_macs});
  EXPECT_EQ(report_json(result)["summary"]["macs_by_type"].dump(),
            R"({"bf16":107,"fp8_e4m3":50})");
}

TEST(JsonReport, IsByteIdenticalForEqualResults) {
  EXPECT_EQ(report_json(sample_result()).dump(2), report_json(sample_result()).dump(2));
}

}  // namespace
}  // namespace polyarch::reports
