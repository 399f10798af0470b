// PIM blocks and host requests on the same JEDEC channel behind SystemC: each slows the other
// (the mode changes and the banks' rows), each one's interference is what the other cost it,
// and every command stream stays legal.
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

DramSpec hbm2e() {
  DramSpec spec;
  spec.model = "jedec";
  spec.jedec_config = dram::preset("hbm2e_3200");
  spec.check_commands = true;
  return spec;
}

// A PIM stream of `rows` rows per PU bank pair, block by block as a PIM unit issues it.
void pim_stream(DramChannel& dram, int initiator, int64_t rows, sc_core::sc_time& done) {
  const int64_t per_block = 2 * 32;  // one 1 KiB row (32 bursts) in each of a PU's two banks
  dram::PimBlock block{.mode = dram::PimCommandMode::kAllBank,
                       .pus = 8,
                       .banks_per_pu = 2,
                       .total_bursts = rows * 32};
  sc_core::sc_time complete;
  for (int64_t first = 0; first < block.total_bursts; first += per_block) {
    block.first_burst = first;
    block.bursts = std::min(per_block, block.total_bursts - first);
    const DramTicket ticket = dram.pim_request(initiator, block);
    complete = std::max(complete, ticket.complete);
    if (ticket.sent > sc_core::sc_time_stamp()) wait(ticket.sent - sc_core::sc_time_stamp());
  }
  if (complete > sc_core::sc_time_stamp()) wait(complete - sc_core::sc_time_stamp());
  done = sc_core::sc_time_stamp();
}

// Host reads of 2 KiB, each issued when the previous one's data arrived, every `gap` apart.
void host_reads(DramChannel& dram, int initiator, int count, sc_core::sc_time gap,
                sc_core::sc_time& done) {
  for (int i = 0; i < count; ++i) {
    const DramTicket ticket = dram.request_at(initiator, {int64_t{i} * 2048, 2048}, false);
    if (ticket.complete > sc_core::sc_time_stamp()) {
      wait(ticket.complete - sc_core::sc_time_stamp());
    }
    wait(gap);
  }
  done = sc_core::sc_time_stamp();
}

struct SharedRun {
  sc_core::sc_time pim_done;
  sc_core::sc_time host_done;
  DramTraffic pim;
  DramTraffic host;
  dram::PimCounters counters;
};

SharedRun run(bool with_pim, bool with_host) {
  ScopedSimContext context;
  DramChannel dram("dram", hbm2e(), InterconnectSpec{}, 1.0);
  const int pim = dram.register_initiator("pim");
  const int host = dram.register_initiator("host");
  SharedRun result;
  std::vector<std::unique_ptr<ThreadModule>> threads;
  if (with_pim) {
    threads.push_back(std::make_unique<ThreadModule>(
        "pim_thread", [&] { pim_stream(dram, pim, 64, result.pim_done); }));
  }
  if (with_host) {
    threads.push_back(std::make_unique<ThreadModule>("host_thread", [&] {
      host_reads(dram, host, 20, sc_core::sc_time(50, sc_core::SC_NS), result.host_done);
    }));
  }
  sc_core::sc_start();
  result.pim = dram.traffic(pim);
  result.host = dram.traffic(host);
  result.counters = dram.jedec()->pim_counters();
  EXPECT_FALSE(dram.jedec()->check()) << "a command stream broke JEDEC timing";
  return result;
}

TEST(PimChannel, PimAndHostOnTheSameBanksAreEachSlowerThanAlone) {
  const SharedRun pim_alone = run(true, false);
  const SharedRun host_alone = run(false, true);
  const SharedRun both = run(true, true);
  EXPECT_GT(both.pim_done, pim_alone.pim_done);
  EXPECT_GT(both.host_done, host_alone.host_done);
  // Every time host reads came during the PIM stream the device left PIM mode and came back.
  EXPECT_GT(both.counters.mode_exits, 0);
  EXPECT_EQ(both.counters.mode_entries, both.counters.mode_exits + 16);  // still in it at the end
  EXPECT_EQ(pim_alone.counters.mode_entries, 16);  // once per pseudo-channel
  EXPECT_EQ(pim_alone.counters.mode_exits, 0);
  // The blocks: one per two rows, 16 pseudo-channels each.
  EXPECT_EQ(both.pim.pim_blocks, 32);
  EXPECT_EQ(both.pim.pim_column_commands, 16 * 64 * 32);
  EXPECT_GT(both.pim.interference_s, 0.0);
  EXPECT_GT(both.host.interference_s, 0.0);
  // Each lost no more than the time it ran longer than alone, give or take its own queueing.
  EXPECT_LE(both.pim.interference_s, (both.pim_done - pim_alone.pim_done).to_seconds() * 1.05);
  EXPECT_EQ(pim_alone.pim.interference_s, 0.0);
}

}  // namespace
}  // namespace polyarch::sim
