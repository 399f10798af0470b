// The jedec backend behind the SystemC channel: units meeting at one channel slow each other,
// units on different channels do not, and a sequential stream achieves a bandwidth between a
// bound derived from the timing parameters and the pins' peak.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "sim/memory/dram/presets.h"
#include "sim/memory/dram_channel.h"
#include "sim/memory/jedec_backend.h"
#include "tests/sim/systemc_harness.h"

namespace polyarch::sim {
namespace {

using harness::ScopedSimContext;
using harness::ThreadModule;

constexpr int64_t kRequestBytes = 4096;
constexpr int kRequests = 256;

// Two DDR4-3200 channels with the channel as the most significant address field, so the lower
// half of the capacity is channel 0 and the upper half channel 1.
DramSpec two_channel_ddr4() {
  dram::DramConfig config = dram::ddr4_3200();
  config.organization.channels = 2;
  config.controller.address_scheme = dram::AddressScheme::kFieldOrder;
  config.controller.field_order = "chrobabgraco";
  DramSpec spec;
  spec.model = "jedec";
  spec.jedec_config = config;
  return spec;
}

// Streams kRequests sequential reads of kRequestBytes from `base`, each issued when the
// previous one's last column command went out (as a DMA engine does); returns the end time.
void stream(DramChannel& dram, int initiator, int64_t base, sc_core::sc_time& done) {
  sc_core::sc_time last_complete;
  for (int i = 0; i < kRequests; ++i) {
    const DramTicket ticket =
        dram.request_at(initiator, {base + i * kRequestBytes, kRequestBytes}, false);
    last_complete = std::max(last_complete, ticket.complete);
    if (ticket.sent > sc_core::sc_time_stamp())
      sc_core::wait(ticket.sent - sc_core::sc_time_stamp());
  }
  if (last_complete > sc_core::sc_time_stamp()) {
    sc_core::wait(last_complete - sc_core::sc_time_stamp());
  }
  done = sc_core::sc_time_stamp();
}

// Each of `bases` streamed by its own initiator at once; their end times (and, in `traffic`,
// what each met).
std::vector<sc_core::sc_time> run_streams(const DramSpec& spec, const std::vector<int64_t>& bases,
                                          std::vector<DramTraffic>* traffic = nullptr,
                                          int idle_initiators = 0) {
  ScopedSimContext context;
  DramChannel dram("dram", spec, InterconnectSpec{}, 1.0);
  for (int idle = 0; idle < idle_initiators; ++idle) dram.register_initiator("idle");
  std::vector<sc_core::sc_time> done(bases.size());
  std::vector<int> initiators;
  std::vector<std::unique_ptr<ThreadModule>> threads;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const int initiator = dram.register_initiator("unit" + std::to_string(i));
    initiators.push_back(initiator);
    threads.push_back(std::make_unique<ThreadModule>(
        ("t" + std::to_string(i)).c_str(),
        [&dram, &done, &bases, i, initiator] { stream(dram, initiator, bases[i], done[i]); }));
  }
  sc_core::sc_start();
  if (traffic != nullptr) {
    for (int initiator : initiators) traffic->push_back(dram.traffic(initiator));
  }
  return done;
}

TEST(JedecChannel, TwoUnitsOnOneChannelAreEachSlowerThanAlone) {
  const DramSpec spec = two_channel_ddr4();
  const sc_core::sc_time alone = run_streams(spec, {0})[0];
  // Both in channel 0, in different rows.
  const std::vector<sc_core::sc_time> shared = run_streams(spec, {0, 64 << 20});
  EXPECT_GT(shared[0], alone * 1.2);
  EXPECT_GT(shared[1], alone * 1.2);
}

TEST(JedecChannel, TwoUnitsOnSeparateChannelsRunAsFastAsAlone) {
  const DramSpec spec = two_channel_ddr4();
  const int64_t channel_bytes = spec.jedec_config->capacity_bytes() / 2;
  const sc_core::sc_time alone = run_streams(spec, {0})[0];
  const std::vector<sc_core::sc_time> separate = run_streams(spec, {0, channel_bytes});
  // The controllers are independent and refresh on the same schedule: exactly the same time.
  EXPECT_EQ(separate[0], alone);
  EXPECT_EQ(separate[1], alone);
}

// Interference: the time each requester's data came later than on a DRAM of its own.
TEST(JedecChannel, InterferenceIsTheDelayOthersCauseAndZeroAlone) {
  const DramSpec spec = two_channel_ddr4();
  // Alone, though another requester is registered (so a shadow DRAM runs): nothing is lost.
  std::vector<DramTraffic> alone;
  const sc_core::sc_time alone_done = run_streams(spec, {0}, &alone, 1)[0];
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].interference_s, 0.0);
  EXPECT_EQ(alone[0].requests, kRequests);
  EXPECT_EQ(alone[0].bytes_read, kRequests * kRequestBytes);
  EXPECT_EQ(alone[0].bursts, kRequests * kRequestBytes / 64);
  EXPECT_EQ(alone[0].row_hits + alone[0].row_misses + alone[0].row_conflicts, alone[0].bursts);

  // Sharing channel 0: each loses time, no more than the run took, and at least the part of
  // its slowdown that is not its own (the stream waits for each request's last data).
  std::vector<DramTraffic> shared;
  const std::vector<sc_core::sc_time> shared_done = run_streams(spec, {0, 64 << 20}, &shared);
  for (int i = 0; i < 2; ++i) {
    EXPECT_GT(shared[i].interference_s, 0.0) << i;
    EXPECT_LE(shared[i].interference_s, shared_done[i].to_seconds()) << i;
    EXPECT_GE(shared[i].interference_s, 0.5 * (shared_done[i] - alone_done).to_seconds()) << i;
    EXPECT_EQ(shared[i].row_hits + shared[i].row_misses + shared[i].row_conflicts,
              shared[i].bursts);
  }

  // On separate channels the controllers never meet.
  std::vector<DramTraffic> separate;
  run_streams(spec, {0, spec.jedec_config->capacity_bytes() / 2}, &separate);
  EXPECT_EQ(separate[0].interference_s, 0.0);
  EXPECT_EQ(separate[1].interference_s, 0.0);
}

// The bandwidth series puts every byte in some window of its channel.
TEST(JedecChannel, ChannelBandwidthHoldsEveryByteOnItsChannel) {
  ScopedSimContext context;
  const DramSpec spec = two_channel_ddr4();
  DramChannel dram("dram", spec, InterconnectSpec{}, 1.0);
  const int unit = dram.register_initiator("unit");
  const int64_t upper = spec.jedec_config->capacity_bytes() / 2;
  ThreadModule thread("t", [&] {
    dram.request_at(unit, {0, 1 << 20}, false);
    dram.request_at(unit, {upper, 4096}, true);
  });
  sc_core::sc_start();
  const std::vector<ChannelBandwidth> series = dram.channel_bandwidth();
  ASSERT_EQ(series.size(), 2u);
  int64_t channel_bytes[2] = {0, 0};
  for (const ChannelBandwidth& channel : series) {
    EXPECT_GT(channel.window_s, 0.0);
    for (int64_t bytes : channel.bytes) channel_bytes[channel.channel] += bytes;
  }
  EXPECT_EQ(channel_bytes[0], 1 << 20);
  EXPECT_EQ(channel_bytes[1], 4096);
  // 1 MiB at DDR4-3200's 25.6 GB/s takes 41 us at least: it spreads over more than one window.
  EXPECT_GT(series[0].bytes.size(), 1u);
}

// A sequential stream never beats the pins: peak = bus bytes x data rate. Below it, with the
// bank group the lowest field (bank_interleaved) consecutive bursts alternate bank groups, so
// a burst takes max(tBL, tCCD_S) on the bus; refresh costs at most tRFC plus closing and
// reopening a row (tRAS + tRP + tRCD) and the first read's tCL per tREFI; and each request at
// most one row switch (tRP + tRCD) before its first burst, during which the previous request's
// data is no longer on the bus.
TEST(JedecChannel, SequentialStreamBandwidthLiesBetweenTheTimingBoundAndThePeak) {
  DramSpec spec;
  spec.model = "jedec";
  spec.jedec_config = dram::ddr4_3200();
  spec.jedec_config->controller.address_scheme = dram::AddressScheme::kBankInterleaved;
  const dram::DramConfig& config = *spec.jedec_config;
  const sc_core::sc_time done = run_streams(spec, {0})[0];
  const double bytes = static_cast<double>(kRequests) * kRequestBytes;
  const double achieved_gbps = bytes / done.to_seconds() / 1e9;

  const double peak_gbps = config.organization.channel_width_bits / 8.0 *
                           static_cast<double>(config.organization.data_rate_mtps) / 1000.0;
  const dram::DramTiming& t = config.timing;
  const double refresh_kept = 1.0 - static_cast<double>(t.tRFC + t.tRAS + t.tRP + t.tRCD + t.tCL) /
                                        static_cast<double>(t.tREFI);
  const double burst_slot_cycles = static_cast<double>(std::max(config.burst_cycles(), t.tCCD_S));
  const double bus_kept = static_cast<double>(config.burst_cycles()) / burst_slot_cycles;
  const double request_data_cycles =
      static_cast<double>(kRequestBytes / config.bytes_per_burst()) * burst_slot_cycles;
  const double request_kept = request_data_cycles / (request_data_cycles + t.tRP + t.tRCD);
  // The stream's first read waits tRCD + tCL before any data moves.
  const double first_read_ns = static_cast<double>(t.tRCD + t.tCL) * config.clock_period_ns();
  const double span_ns = done.to_seconds() * 1e9;
  const double lower_gbps =
      peak_gbps * bus_kept * refresh_kept * request_kept * (span_ns - first_read_ns) / span_ns;
  EXPECT_LE(achieved_gbps, peak_gbps);
  EXPECT_GE(achieved_gbps, lower_gbps);
  EXPECT_GT(lower_gbps, 0.5 * peak_gbps);  // the bound says something
}

TEST(JedecChannel, RequestsWalkTheOpRangesAndWrapAround) {
  ScopedSimContext context;
  DramSpec spec = two_channel_ddr4();
  spec.check_commands = true;
  DramChannel dram("dram", spec, InterconnectSpec{}, 1.0);
  const int unit = dram.register_initiator("unit");
  dram.begin_op(unit, {.reads = {{0, 1024}}, .writes = {{8192, 512}}});
  ThreadModule thread("t", [&] {
    dram.transfer(unit, 3 * 1024, false);  // the range three times
    dram.transfer(unit, 512, true);
  });
  sc_core::sc_start();
  const dram::DramStats stats = dram.jedec()->stats();
  EXPECT_EQ(stats.bytes_read, 3 * 1024);
  EXPECT_EQ(stats.bytes_written, 512);
  // 1 KiB is 16 bursts of one row: one activation serves the range all three times; the
  // writes' row (8 KiB further: the next bank) takes the second.
  EXPECT_EQ(stats.command_count(dram::CommandKind::kActivate), 2);
  EXPECT_FALSE(dram.jedec()->check().has_value());
}

}  // namespace
}  // namespace polyarch::sim
