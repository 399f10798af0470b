// PIM work on a controller's banks, checked against cycle counts derived by hand from the
// HBM2E preset's timings (tRCD 23, tRP 23, tRAS 55, tRTP 10, tCCD_L 4, tCL 23, tBL 2, 32 bursts
// of 32 B per 1 KiB row), against the independent JEDEC checker, and against the host traffic
// that meets it at the same banks.
#include "sim/memory/dram/pim_sequencer.h"

#include <gtest/gtest.h>

#include <random>

#include "base/random_draw.h"
#include "sim/memory/dram/checker.h"
#include "sim/memory/dram/controller.h"
#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

DramConfig hbm2e(bool refresh) {
  DramConfig config = preset("hbm2e_3200");
  config.controller.refresh = refresh;
  return config;
}

PimBlock whole_stream(int64_t bursts, int banks_per_pu, int64_t compute = 0,
                      PimCommandMode mode = PimCommandMode::kAllBank, int pus = 8) {
  return {.mode = mode,
          .pus = pus,
          .banks_per_pu = banks_per_pu,
          .first_burst = 0,
          .bursts = bursts,
          .total_bursts = bursts,
          .compute_cycles_per_burst = compute,
          .base_row = 0};
}

TEST(PimSequencer, TwoBanksStreamAtTccdAfterTheModeEntry) {
  const DramConfig config = hbm2e(false);
  const DramTiming& t = config.timing;
  Controller controller(config, 0, 0);
  const int64_t bursts = 4 * 32;  // four rows, alternating over the PU's two banks
  const PimBlockResult result = controller.serve_pim(whole_stream(bursts, 2), 0);
  // Entry: ACT and PRE to the reserved row (tRAS, then tRP); the first row's ACT, tRCD; then
  // every burst one tCCD_L after the last (the other bank's ACT and PRE hide behind the reads);
  // the last burst's data tCL + tBL later.
  const int64_t first_column = t.tRAS + t.tRP + t.tRCD;
  EXPECT_EQ(result.last_command_cycle, first_column + (bursts - 1) * t.tCCD_L);
  EXPECT_EQ(result.completion_cycle,
            result.last_command_cycle + t.tCL + config.burst_cycles());
  EXPECT_EQ(controller.pim_counters().mode_entries, 1);
  EXPECT_EQ(controller.pim_counters().column_commands, bursts);
  EXPECT_EQ(controller.pim_counters().activates, 1 + 4);
  EXPECT_FALSE(check_command_stream(config, controller.commands()));
}

TEST(PimSequencer, OneBankPaysActivationAndPrechargePerRow) {
  const DramConfig config = hbm2e(false);
  const DramTiming& t = config.timing;
  Controller controller(config, 0, 0);
  const PimBlockResult result = controller.serve_pim(whole_stream(3 * 32, 1), 0);
  // Per row: ACT, tRCD, 32 reads tCCD_L apart, PRE tRTP after the last (tRAS has passed), and
  // the next ACT tRP later.
  const int64_t row_period = t.tRCD + 31 * t.tCCD_L + t.tRTP + t.tRP;
  const int64_t first_activate = t.tRAS + t.tRP;
  EXPECT_EQ(result.last_command_cycle, first_activate + 2 * row_period + t.tRCD + 31 * t.tCCD_L);
  EXPECT_FALSE(check_command_stream(config, controller.commands()));
}

TEST(PimSequencer, ArithmeticSlowerThanTccdPacesTheReads) {
  const DramConfig config = hbm2e(false);
  const DramTiming& t = config.timing;
  Controller controller(config, 0, 0);
  const int64_t compute = 3 * t.tCCD_L;
  const PimBlockResult result = controller.serve_pim(whole_stream(64, 2, compute), 0);
  EXPECT_EQ(result.last_command_cycle, t.tRAS + t.tRP + t.tRCD + 63 * compute);
}

TEST(PimSequencer, BlocksOfOneStreamRunAsTheWholeStreamDoes) {
  // Each block opens the next block's first row ahead, so a stream cut into blocks that follow
  // one another at once keeps the reads tCCD_L apart across the cuts.
  const DramConfig config = hbm2e(false);
  Controller whole(config, 0, 0);
  const int64_t bursts = 8 * 32;
  const PimBlockResult one = whole.serve_pim(whole_stream(bursts, 2), 0);
  Controller cut(config, 0, 0);
  PimBlock block = whole_stream(bursts, 2);
  PimBlockResult last;
  int64_t arrival = 0;
  for (int64_t first = 0; first < bursts; first += 64) {
    block.first_burst = first;
    block.bursts = 64;
    last = cut.serve_pim(block, arrival);
    arrival = last.last_command_cycle + 1;
  }
  EXPECT_EQ(last.completion_cycle, one.completion_cycle);
  EXPECT_EQ(cut.pim_counters().activates, whole.pim_counters().activates);
  EXPECT_FALSE(check_command_stream(config, cut.commands()));
}

TEST(PimSequencer, HostTrafficWaitsForTheModeExit) {
  const DramConfig config = hbm2e(false);
  const DramTiming& t = config.timing;
  DramSystem shared(config);
  const PimBlockResult pim = shared.serve_pim(whole_stream(2 * 32, 2), 0);
  const int64_t arrival = pim.last_command_cycle + 1;
  const Request read{.addr = 0, .is_write = false, .bytes = 32, .arrival_cycle = arrival};
  const int64_t done = shared.serve({&read, 1});
  DramSystem alone(config);
  const int64_t done_alone = alone.serve({&read, 1});
  // Alone: ACT at arrival, RD tRCD later, data tCL + tBL after it.
  EXPECT_EQ(done_alone, arrival + t.tRCD + t.tCL + config.burst_cycles());
  // Shared: the last row's bank closes tRTP after its last read, every bank tRP later; then the
  // exit's ACT and PRE to the reserved row (tRAS, tRP) before the host's own ACT.
  EXPECT_EQ(done, pim.last_command_cycle + t.tRTP + t.tRP + t.tRAS + t.tRP + t.tRCD + t.tCL +
                      config.burst_cycles());
  // Only the pseudo-channel the read reaches leaves PIM mode; the others stay in it.
  EXPECT_EQ(shared.pim_counters().mode_exits, 1);
}

TEST(PimSequencer, PimWorkWaitsForTheHostsRowsToClose) {
  const DramConfig config = hbm2e(false);
  DramSystem alone(config);
  const int64_t pim_alone = alone.serve_pim(whole_stream(32, 2), 0).completion_cycle;
  DramSystem shared(config);
  const Request write{.addr = 0, .is_write = true, .bytes = 4096, .arrival_cycle = 0};
  const int64_t host_done = shared.serve({&write, 1});
  const int64_t pim_shared = shared.serve_pim(whole_stream(32, 2), 0).completion_cycle;
  EXPECT_GT(pim_shared, pim_alone);
  // Its mode entry cannot start before the write's rows are closed: tWR after the data, then
  // tRP; from there on it takes what it takes alone.
  EXPECT_GE(pim_shared - pim_alone, host_done + config.timing.tWR + config.timing.tRP);
}

// Host requests and PIM blocks in random order over several refresh intervals: every
// pseudo-channel's command stream is legal, in both PIM modes.
TEST(PimSequencer, MixedHostAndPimStreamsPassTheChecker) {
  for (const PimCommandMode mode : {PimCommandMode::kAllBank, PimCommandMode::kPerBank}) {
    const DramConfig config = hbm2e(true);
    DramSystem system(config);
    std::mt19937_64 random(11);
    int64_t now = 0;
    int64_t pim_burst = 0;
    const int64_t total = 200 * 32;
    for (int i = 0; i < 300 && pim_burst < total; ++i) {
      if (polyarch::random_chance(random, 0.5)) {
        PimBlock block = whole_stream(total, 2, polyarch::random_int(random, 0, 8), mode, 8);
        block.first_burst = pim_burst;
        block.bursts = std::min<int64_t>(64, total - pim_burst);
        pim_burst += block.bursts;
        now = system.serve_pim(block, now).last_command_cycle + 1;
      } else {
        const Request request{.addr = polyarch::random_int(random, 0, int64_t{1} << 24),
                              .is_write = polyarch::random_chance(random, 0.3),
                              .bytes = polyarch::random_int(random, 1, 512),
                              .arrival_cycle = now};
        system.serve({&request, 1});
        now += polyarch::random_int(random, 0, 200);
      }
    }
    for (int channel = 0; channel < config.organization.channels; ++channel) {
      for (int pc = 0; pc < config.organization.pseudo_channels; ++pc) {
        const auto violation = check_command_stream(config, system.commands(channel, pc));
        EXPECT_FALSE(violation) << violation->rule << ": " << violation->message;
      }
    }
    EXPECT_GT(system.stats().refreshes, 0);
  }
}

TEST(PimSequencer, PerBankPusShareTheCommandBus) {
  // Eight PUs each reading 32 bursts of their own bank pair: 256 column commands, at most one
  // per cycle on the command bus and one per tCCD_S on the pseudo-channel.
  const DramConfig config = hbm2e(false);
  Controller controller(config, 0, 0);
  const PimBlockResult result =
      controller.serve_pim(whole_stream(32, 2, 0, PimCommandMode::kPerBank, 8), 0);
  EXPECT_EQ(controller.pim_counters().column_commands, 8 * 32);
  EXPECT_EQ(controller.pim_counters().mode_entries, 0);
  EXPECT_GE(result.last_command_cycle, 8 * 32 * std::max<int64_t>(1, config.timing.tCCD_S) - 1);
  EXPECT_FALSE(check_command_stream(config, controller.commands()));
}

}  // namespace
}  // namespace polyarch::sim::dram
