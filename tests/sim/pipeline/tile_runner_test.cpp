// The tile runner against hand-derived timelines: compute-bound tiles run back to back, a lone
// tile waits for its operands and its results, and on a saturated channel the loads set the
// pace. Each case runs with fast-forward on and off: skipping identical tiles must not move
// the end time or lose a byte.
#include "sim/pipeline/tile_runner.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "tests/sim/systemc_harness.h"

namespace polyarch::sim {
namespace {

using harness::ScopedSimContext;
using harness::ThreadModule;
using sc_core::SC_NS;
using sc_core::sc_time;

struct Outcome {
  sc_time end;
  TileRunStats stats;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
};

// Runs `plan` on a 1 GHz unit with `slots` buffer slots, alone on a channel of the given
// bandwidth (0: unlimited) and latency.
Outcome run_plan(const TilePlan& plan, int slots, double bandwidth_gbps, double latency_ns,
                 bool fast_forward) {
  ScopedSimContext context;
  DramSpec spec;
  spec.bandwidth_gbps = bandwidth_gbps;
  spec.latency_ns = latency_ns;
  DramChannel dram("dram", spec, InterconnectSpec{}, 1.0);
  const int initiator = dram.register_initiator("unit");
  const UnitClock clock(1.0);
  TileRunner runner("runner", dram, initiator, clock, slots, fast_forward);
  Outcome outcome;
  ThreadModule thread("t", [&] {
    outcome.stats = runner.run(plan, false);
    outcome.end = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  outcome.bytes_read = dram.bytes_read(initiator);
  outcome.bytes_written = dram.bytes_written(initiator);
  return outcome;
}

TilePlan identical_tiles(TileShape tile, int64_t count) {
  return {.blocks = {{.runs = {{tile, count}}, .repeat = 1}}, .plan_repeats = 1};
}

TEST(TileRunner, ComputeBoundTilesRunBackToBack) {
  // Unlimited bandwidth and no latency: 100 tiles x 50 cycles at 1 GHz = 5000 ns.
  const TilePlan plan =
      identical_tiles({.cycles = 50, .dram_read_bytes = 64, .dram_write_bytes = 32}, 100);
  for (bool fast_forward : {false, true}) {
    const Outcome outcome = run_plan(plan, 2, 0.0, 0.0, fast_forward);
    EXPECT_EQ(outcome.end, sc_time(5000, SC_NS)) << "fast_forward " << fast_forward;
    EXPECT_EQ(outcome.bytes_read, 100 * 64);
    EXPECT_EQ(outcome.bytes_written, 100 * 32);
    EXPECT_EQ(outcome.stats.tiles_simulated + outcome.stats.tiles_skipped, 100);
    EXPECT_EQ(outcome.stats.tiles_skipped > 0, fast_forward);
  }
}

TEST(TileRunner, LoneTileWaitsForItsOperandsAndItsResults) {
  // 1000 B at 10 GB/s = 100 ns on the channel, +100 ns latency: operands at 200 ns; 50 cycles
  // of compute to 250 ns; the write leaves the channel at 350 ns and completes at 450 ns.
  const TilePlan plan =
      identical_tiles({.cycles = 50, .dram_read_bytes = 1000, .dram_write_bytes = 1000}, 1);
  EXPECT_EQ(run_plan(plan, 1, 10.0, 100.0, true).end, sc_time(450, SC_NS));
}

TEST(TileRunner, SaturatedChannelPacesTilesByTheirLoads) {
  // Each load holds the channel 100 ns and compute takes 10 ns, so with two slots the loads
  // go out back to back: tile i's operands arrive at 100 (i + 1) ns and the last of 200 tiles
  // computes by 200 x 100 + 10 ns.
  const TilePlan plan =
      identical_tiles({.cycles = 10, .dram_read_bytes = 1000, .dram_write_bytes = 0}, 200);
  for (bool fast_forward : {false, true}) {
    const Outcome outcome = run_plan(plan, 2, 10.0, 0.0, fast_forward);
    EXPECT_EQ(outcome.end, sc_time(20010, SC_NS)) << "fast_forward " << fast_forward;
    EXPECT_EQ(outcome.bytes_read, 200 * 1000);
  }
}

TEST(TileRunner, SlotsOutsideOneToTheMaximumAreRejected) {
  ScopedSimContext context;
  DramChannel dram("dram", DramSpec{}, InterconnectSpec{}, 1.0);
  const UnitClock clock(1.0);
  TileRunner runner("runner", dram, dram.register_initiator("unit"), clock, 2, true);
  EXPECT_THROW(runner.set_slots(0), Error);
  EXPECT_THROW(runner.set_slots(kMaxTileSlots + 1), Error);
  EXPECT_NO_THROW(runner.set_slots(kMaxTileSlots));
}

}  // namespace
}  // namespace polyarch::sim
