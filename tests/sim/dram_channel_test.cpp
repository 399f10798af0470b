#include "sim/memory/dram_channel.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "tests/sim/systemc_harness.h"

namespace polyarch::sim {
namespace {

using harness::ScopedSimContext;
using harness::ThreadModule;
using sc_core::SC_NS;
using sc_core::sc_time;

DramSpec dram_with(double bandwidth_gbps, double latency_ns) {
  DramSpec dram;
  dram.bandwidth_gbps = bandwidth_gbps;
  dram.latency_ns = latency_ns;
  return dram;
}

TEST(DramChannel, BandwidthBoundTransferTakesBytesOverBandwidthPlusLatency) {
  ScopedSimContext context;
  InterconnectSpec bus;
  bus.latency_cycles = 8;  // 8 ns at the 1 GHz SoC clock
  DramChannel dram("dram", dram_with(10.0, 100.0), bus, 1.0);
  const int cpu = dram.register_initiator("cpu");
  sc_time done;
  ThreadModule thread("t", [&] {
    dram.transfer(cpu, 1000, false);  // 1000 B at 10 GB/s = 100 ns
    done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  EXPECT_EQ(done, sc_time(208, SC_NS));
  EXPECT_EQ(dram.bytes_read(cpu), 1000);
  EXPECT_EQ(dram.bytes_written(cpu), 0);
  EXPECT_EQ(dram.busy_time(), sc_time(100, SC_NS));
}

TEST(DramChannel, TwoInitiatorsAreServedFirstComeFirstServed) {
  ScopedSimContext context;
  DramChannel dram("dram", dram_with(1.0, 50.0), InterconnectSpec{}, 1.0);
  const int first = dram.register_initiator("first");
  const int second = dram.register_initiator("second");
  sc_time first_done;
  sc_time second_done;
  ThreadModule a("a", [&] {
    dram.transfer(first, 100, false);  // 100 ns on the channel
    first_done = sc_core::sc_time_stamp();
  });
  ThreadModule b("b", [&] {
    sc_core::wait(sc_time(10, SC_NS));  // arrives while the first is on the channel
    dram.transfer(second, 100, true);
    second_done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  EXPECT_EQ(first_done, sc_time(150, SC_NS));
  // Waits for the first's bytes (until 100 ns), not for its latency.
  EXPECT_EQ(second_done, sc_time(250, SC_NS));
  EXPECT_EQ(dram.bytes_written(second), 100);
  EXPECT_EQ(dram.total_bytes_read(), 100);
  EXPECT_EQ(dram.total_bytes_written(), 100);
}

TEST(DramChannel, UnlimitedBandwidthCostsOnlyLatency) {
  ScopedSimContext context;
  DramChannel dram("dram", dram_with(0.0, 40.0), InterconnectSpec{}, 1.0);
  const int cpu = dram.register_initiator("cpu");
  EXPECT_TRUE(dram.unlimited_bandwidth());
  sc_time done;
  ThreadModule thread("t", [&] {
    dram.transfer(cpu, int64_t{1} << 40, false);
    dram.transfer(cpu, int64_t{1} << 40, true);
    done = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  EXPECT_EQ(done, sc_time(80, SC_NS));
}

TEST(DramChannel, NarrowerInterconnectLimitsBandwidth) {
  ScopedSimContext context;
  InterconnectSpec bus;
  bus.bandwidth_gbps = 2.0;
  DramChannel dram("dram", dram_with(0.0, 0.0), bus, 1.0);
  EXPECT_FALSE(dram.unlimited_bandwidth());
  EXPECT_EQ(dram.occupancy(200), sc_time(100, SC_NS));
  DramChannel wide_bus("wide", dram_with(4.0, 0.0), InterconnectSpec{.bandwidth_gbps = 8.0}, 1.0);
  EXPECT_EQ(wide_bus.occupancy(400), sc_time(100, SC_NS));
}

TEST(DramChannel, RequestReturnsTicketWithoutBlocking) {
  ScopedSimContext context;
  DramChannel dram("dram", dram_with(1.0, 30.0), InterconnectSpec{}, 1.0);
  const int cpu = dram.register_initiator("cpu");
  DramTicket first;
  DramTicket second;
  ThreadModule thread("t", [&] {
    first = dram.request(cpu, 10, false);
    second = dram.request(cpu, 20, false);
  });
  sc_core::sc_start();
  EXPECT_EQ(first.sent, sc_time(10, SC_NS));
  EXPECT_EQ(first.complete, sc_time(40, SC_NS));
  EXPECT_EQ(second.sent, sc_time(30, SC_NS));
  EXPECT_EQ(second.complete, sc_time(60, SC_NS));
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}

TEST(DramChannel, OthersActiveSinceSeesRecentAndInFlightRequests) {
  ScopedSimContext context;
  DramChannel dram("dram", dram_with(1.0, 100.0), InterconnectSpec{}, 1.0);
  const int me = dram.register_initiator("me");
  const int other = dram.register_initiator("other");
  bool quiet_before = false;
  bool active_during = false;
  bool active_after_since_issue = false;
  bool quiet_later = false;
  ThreadModule thread("t", [&] {
    quiet_before = !dram.others_active_since(me, sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_time(10, SC_NS));
    dram.request(other, 10, false);  // sent at 20 ns, complete at 120 ns
    active_during = dram.others_active_since(me, sc_time(15, SC_NS));
    sc_core::wait(sc_time(200, SC_NS));
    active_after_since_issue = dram.others_active_since(me, sc_time(5, SC_NS));
    quiet_later = !dram.others_active_since(me, sc_time(150, SC_NS));
    // Its own requests never count.
    dram.request(me, 10, false);
    quiet_later = quiet_later && !dram.others_active_since(me, sc_time(150, SC_NS));
  });
  sc_core::sc_start();
  EXPECT_TRUE(quiet_before);
  EXPECT_TRUE(active_during);
  EXPECT_TRUE(active_after_since_issue);
  EXPECT_TRUE(quiet_later);
}

TEST(DramChannel, RejectsUnregisteredInitiatorsAndBadClocks) {
  ScopedSimContext context;
  EXPECT_THROW(DramChannel("bad", dram_with(1.0, 1.0), InterconnectSpec{}, 0.0), Error);
  DramChannel dram("dram", dram_with(1.0, 1.0), InterconnectSpec{}, 1.0);
  EXPECT_THROW(dram.request(3, 10, false), Error);
}

}  // namespace
}  // namespace polyarch::sim
