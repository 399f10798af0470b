// Trace replay against hand derivations from DDR4-3200's timing (presets.cpp): tRCD = tRP = CL
// = 22, tRAS = 52, tCCD_S = 4, tCCD_L = 8, tRRD_S = 4, a burst of 8 transfers at 2 per tCK =
// 4 tCK on the bus, 64 bytes.
#include "sim/memory/dram/replay.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/memory/dram/presets.h"
#include "tests/support/bad_input.h"

namespace polyarch::sim::dram {
namespace {

// DDR4-3200 with the column bits lowest ("rochrababgco"): consecutive 64-byte bursts share a
// row of one bank.
DramConfig ddr4_columns_lowest() {
  DramConfig config = ddr4_3200();
  config.controller.address_scheme = AddressScheme::kFieldOrder;
  config.controller.field_order = "rochrababgco";
  return config;
}

Trace trace_of(std::initializer_list<TraceRequest> requests) {
  Trace trace;
  trace.file = "hand.trace";
  int line = 0;
  for (TraceRequest request : requests) {
    request.line = ++line;
    trace.requests.push_back(request);
  }
  return trace;
}

// The byte address of (row, column burst) in bank 0 of bank group 0 under "rochrababgco":
// 6 burst-offset bits (64 bytes), 7 column bits (128 bursts a row), 2 bank-group bits, 2 bank
// bits, no rank or channel bits, then the row.
int64_t address_of(int64_t row, int64_t column_burst) {
  return (row << (6 + 7 + 2 + 2)) | (column_burst << 6);
}

TEST(DramReplay, OneReadToAClosedBankTakesTrcdPlusClPlusTheBurst) {
  const ReplayResult result =
      replay_trace(ddr4_columns_lowest(), trace_of({{.address = 0, .arrival_cycle = 5}}));
  // ACT at 5, RD at 5 + 22, data from 27 + 22 for 4 cycles: 22 + 22 + 4 = 48 after entry.
  EXPECT_EQ(result.mean_read_latency_cycles, 48.0);
  EXPECT_EQ(result.p50_read_latency_cycles, 48);
  EXPECT_EQ(result.p99_read_latency_cycles, 48);
  EXPECT_EQ(result.cycles, 5 + 48);
  EXPECT_DOUBLE_EQ(result.mean_read_latency_ns, 48 * 0.625);
  EXPECT_EQ(result.row_misses, 1);
  EXPECT_EQ(result.reads, 1);
  EXPECT_EQ(result.writes, 0);
}

TEST(DramReplay, RowHitStreamAcrossBankGroupsKeepsTheBusBusyAtPeak) {
  // Bank group lowest: bursts rotate over the four groups (tCCD_S = 4 = one burst), and 512
  // bursts fill one row of each group, so after the first read's tRCD + CL the data bus never
  // idles: cycles = 22 + 22 + 512 x 4.
  DramConfig config = ddr4_3200();
  config.controller.address_scheme = AddressScheme::kFieldOrder;
  config.controller.field_order = "rochrabacobg";
  Trace trace;
  trace.file = "stream.trace";
  for (int i = 0; i < 512; ++i) {
    trace.requests.push_back({.address = int64_t{i} * 64, .arrival_cycle = 0, .line = i + 1});
  }
  const ReplayResult result = replay_trace(config, trace);
  EXPECT_EQ(result.cycles, 22 + 22 + 512 * 4);
  EXPECT_EQ(result.row_hits, 512 - 4);
  EXPECT_EQ(result.row_misses, 4);
  // 512 x 64 bytes in 2092 cycles of 0.625 ns, against 25.6 GB/s peak.
  EXPECT_NEAR(result.bandwidth_gbps, 512.0 * 64 / (2092 * 0.625), 1e-9);
  EXPECT_DOUBLE_EQ(result.peak_bandwidth_gbps, 25.6);
}

TEST(DramReplay, RowConflictCostsTrpPlusTrcdMoreThanARowHit) {
  // The second read arrives at 100, long after tRAS (52) of the first one's ACT at 0.
  const DramConfig config = ddr4_columns_lowest();
  const ReplayResult hit =
      replay_trace(config, trace_of({{.address = address_of(3, 0)},
                                     {.address = address_of(3, 1), .arrival_cycle = 100}}));
  const ReplayResult conflict =
      replay_trace(config, trace_of({{.address = address_of(3, 0)},
                                     {.address = address_of(4, 0), .arrival_cycle = 100}}));
  // Hit: RD at 100, data ends 100 + 22 + 4. Conflict: PRE at 100, ACT at 122, RD at 144.
  EXPECT_EQ(hit.cycles, 126);
  EXPECT_EQ(conflict.cycles, 126 + 22 + 22);
  EXPECT_EQ(hit.row_hits, 1);
  EXPECT_EQ(conflict.row_conflicts, 1);
  // Mean of 48 (first read) and 26 or 70.
  EXPECT_DOUBLE_EQ(hit.mean_read_latency_cycles, (48 + 26) / 2.0);
  EXPECT_DOUBLE_EQ(conflict.mean_read_latency_cycles, (48 + 70) / 2.0);
}

TEST(DramReplay, RequestsEnterAtMostOnePerCycle) {
  // Two reads arriving together to two bank groups: the second enters at cycle 1, its ACT
  // waits tRRD_S = 4 after the first, so it reads at 4 + 22 and its data ends at 4 + 48; its
  // latency from entry (cycle 1) is 51.
  DramConfig config = ddr4_3200();
  config.controller.address_scheme = AddressScheme::kFieldOrder;
  config.controller.field_order = "rochrabacobg";
  const ReplayResult result = replay_trace(config, trace_of({{.address = 0}, {.address = 64}}));
  EXPECT_EQ(result.cycles, 4 + 48);
  EXPECT_DOUBLE_EQ(result.mean_read_latency_cycles, (48 + 51) / 2.0);
}

TEST(DramReplay, AddressBeyondCapacityNamesTheTraceLine) {
  const DramConfig config = ddr4_3200();  // 8 GiB
  const std::string message = test_support::bad_input_message(
      [&] {
        replay_trace(config, trace_of({{.address = 0}, {.address = int64_t{8} << 30}}));
      },
      "an address of 8 GiB");
  EXPECT_NE(message.find("hand.trace:2"), std::string::npos) << message;
}

TEST(DramReplay, RefreshesFallEveryTrefiEvenWhileIdle) {
  // Two reads 3 x tREFI apart: the controller idles between them and still refreshes at
  // 12480, 24960 and 37440, all before the last data transfer.
  const ReplayResult result =
      replay_trace(ddr4_columns_lowest(),
                   trace_of({{.address = 0}, {.address = 64, .arrival_cycle = 3 * 12480 + 100}}));
  EXPECT_EQ(result.refreshes, 3);
}

}  // namespace
}  // namespace polyarch::sim::dram
