#include "reports/trace_json.h"

#include <gtest/gtest.h>

#include <vector>

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

TEST(TraceJson, EachDramChannelHasABandwidthCounterPerWindow) {
  sim::RunResult result = two_op_result();
  result.memory.emplace();
  // Channel 1: 3000 bytes in the first 1 us window, none in the second.
  result.memory->channel_bandwidth.push_back({.channel = 1, .window_s = 1e-6, .bytes = {3000, 0}});
  const nlohmann::ordered_json trace = trace_json(result);
  std::vector<nlohmann::ordered_json> counters;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "C" && event["name"] == "DRAM channel 1 GB/s") counters.push_back(event);
  }
  ASSERT_EQ(counters.size(), 2u);
  EXPECT_DOUBLE_EQ(counters[0]["ts"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(counters[0]["args"]["GB/s"].get<double>(), 3.0);  // 3000 B / 1 us
  EXPECT_DOUBLE_EQ(counters[1]["ts"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(counters[1]["args"]["GB/s"].get<double>(), 0.0);
}

TEST(TraceJson, PimInternalBytesHaveATrackBesideTheirChannelsBusCounter) {
  sim::RunResult result = two_op_result();
  result.memory.emplace();
  // Channel 0: PIM column commands moved 8000 B between banks and PUs in the second window;
  // channel 1 had no PIM work and gets no second track.
  result.memory->channel_bandwidth.push_back(
      {.channel = 0, .window_s = 1e-6, .bytes = {100, 0}, .pim_internal_bytes = {0, 8000}});
  result.memory->channel_bandwidth.push_back(
      {.channel = 1, .window_s = 1e-6, .bytes = {100, 0}, .pim_internal_bytes = {0, 0}});
  const nlohmann::ordered_json trace = trace_json(result);
  std::vector<double> internal;
  std::vector<double> bus;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "C") continue;
    EXPECT_NE(event["name"], "PIM channel 1 internal GB/s");
    if (event["name"] == "PIM channel 0 internal GB/s") {
      internal.push_back(event["args"]["GB/s"].get<double>());
    }
    if (event["name"] == "DRAM channel 0 GB/s") bus.push_back(event["args"]["GB/s"].get<double>());
  }
  ASSERT_EQ(internal.size(), 2u);
  EXPECT_DOUBLE_EQ(internal[0], 0.0);
  EXPECT_DOUBLE_EQ(internal[1], 8.0);  // 8000 B / 1 us
  ASSERT_EQ(bus.size(), 2u);
  EXPECT_DOUBLE_EQ(bus[0], 0.1);  // the bus counter keeps only its own bytes
}

}  // namespace
}  // namespace polyarch::reports
