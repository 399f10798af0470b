#include "reports/trace_json.h"

#include <gtest/gtest.h>

namespace polyarch::reports {
namespace {

sim::RunResult two_op_result() {
  sim::RunResult result;
  sim::UnitResult unit;
  unit.name = "mxu";
  unit.kind = "systolic";
  unit.clock_ghz = 2.0;
  unit.busy_cycles = 300;
  unit.total_cycles = 300;
  unit.utilization = 1.0;
  result.units.push_back(unit);
  for (int i = 0; i < 2; ++i) {
    sim::OpResult op;
    op.name = "op" + std::to_string(i);
    op.kind = "gemm";
    op.unit = "mxu";
    op.unit_clock_ghz = 2.0;
    op.start_cycle = 100 * i;
    op.total_cycles = 100 + 100 * i;
    op.end_cycle = op.start_cycle + op.total_cycles;
    op.dram_bytes_read = 2000;
    result.ops.push_back(op);
  }
  return result;
}

TEST(TraceJson, OneCompleteEventPerOpOnItsUnitsTrackInMicroseconds) {
  nlohmann::ordered_json trace = trace_json(two_op_result());
  std::vector<nlohmann::ordered_json> slices;
  int thread_names = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X") slices.push_back(event);
    if (event["ph"] == "M" && event["name"] == "thread_name") ++thread_names;
  }
  EXPECT_EQ(thread_names, 1);
  ASSERT_EQ(slices.size(), 2u);
  // op1 starts at cycle 100 of a 2 GHz clock = 0.05 us and lasts 200 cycles = 0.1 us.
  EXPECT_EQ(slices[1]["name"], "op1");
  EXPECT_DOUBLE_EQ(slices[1]["ts"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ(slices[1]["dur"].get<double>(), 0.1);
  EXPECT_EQ(slices[1]["tid"], 1);
}

TEST(TraceJson, BandwidthCounterRisesDuringAnOpAndFallsToZeroAfter) {
  nlohmann::ordered_json trace = trace_json(two_op_result());
  std::vector<double> values;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "C") values.push_back(event["args"]["GB/s"].get<double>());
  }
  ASSERT_EQ(values.size(), 4u);
  // op0: 2000 bytes in 100 cycles at 2 GHz = 50 ns -> 40 GB/s.
  EXPECT_DOUBLE_EQ(values[0], 40.0);
  EXPECT_DOUBLE_EQ(values[1], 0.0);
}

}  // namespace
}  // namespace polyarch::reports
