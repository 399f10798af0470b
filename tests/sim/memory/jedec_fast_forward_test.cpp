// Steady-state fast-forward on the jedec backend: skipping identical tiles must give the same
// end time as simulating each and move every byte through the controllers. A skip hands the
// controllers its tiles' traffic as one request, whose bursts FR-FCFS overlaps across what
// were request boundaries (opening the next rows while the stream still runs), so a
// memory-bound skip may end earlier by up to a row switch (tRP + tRCD) per tile: 2 % here.
#include <gtest/gtest.h>

#include "sim/memory/dram/presets.h"
#include "sim/memory/jedec_backend.h"
#include "sim/pipeline/tile_runner.h"
#include "tests/sim/systemc_harness.h"

namespace polyarch::sim {
namespace {

using harness::ScopedSimContext;
using harness::ThreadModule;

struct Outcome {
  sc_core::sc_time end;
  TileRunStats stats;
  int64_t bursts = 0;
};

Outcome run_plan(const TilePlan& plan, bool fast_forward) {
  ScopedSimContext context;
  DramSpec spec;
  spec.model = "jedec";
  spec.jedec_config = dram::ddr4_3200();
  DramChannel dram("dram", spec, InterconnectSpec{}, 1.0);
  const int initiator = dram.register_initiator("unit");
  dram.begin_op(initiator, {.reads = {{0, 1 << 20}}, .writes = {{1 << 20, 1 << 20}}});
  const UnitClock clock(1.0);
  TileRunner runner("runner", dram, initiator, clock, 2, fast_forward);
  Outcome outcome;
  ThreadModule thread("t", [&] {
    outcome.stats = runner.run(plan, false);
    outcome.end = sc_core::sc_time_stamp();
  });
  sc_core::sc_start();
  outcome.bursts = dram.jedec()->stats().bursts();
  return outcome;
}

void expect_same_run(const TilePlan& plan, int64_t tiles, int64_t bytes_per_tile,
                     double tolerance) {
  const Outcome simulated = run_plan(plan, false);
  const Outcome skipped = run_plan(plan, true);
  EXPECT_EQ(simulated.stats.tiles_skipped, 0);
  EXPECT_EQ(skipped.stats.tiles_simulated + skipped.stats.tiles_skipped, tiles);
  EXPECT_NEAR(skipped.end.to_seconds(), simulated.end.to_seconds(),
              tolerance * simulated.end.to_seconds());
  // Every tile's bytes reached the controllers as 64-byte bursts, skipped or not.
  EXPECT_EQ(simulated.bursts, tiles * bytes_per_tile / 64);
  EXPECT_EQ(skipped.bursts, simulated.bursts);
}

TEST(JedecFastForward, ComputeBoundTilesEndWhenSimulatedOneByOne) {
  // 1000 ns of compute per tile against ~30 ns of DRAM traffic.
  const TilePlan plan = {
      .blocks = {{.runs = {{{.cycles = 1000, .dram_read_bytes = 512, .dram_write_bytes = 256},
                            2000}},
                  .repeat = 1}},
      .plan_repeats = 1};
  expect_same_run(plan, 2000, 768, 0.001);
}

TEST(JedecFastForward, MemoryBoundTilesEndWhenSimulatedOneByOne) {
  // 8 KiB per 100 ns tile needs 82 GB/s: DDR4-3200's 25.6 GB/s sets the pace.
  const TilePlan plan = {
      .blocks = {{.runs = {{{.cycles = 100, .dram_read_bytes = 8192, .dram_write_bytes = 0},
                            1000}},
                  .repeat = 1}},
      .plan_repeats = 1};
  // DDR4-3200: a tile's 8 KiB take 128 bursts x 4 tCK = 512 tCK; a row switch 44 tCK, at
  // most every fourth tile (a row of four bank groups holds 32 KiB): 44 / (4 x 512) = 2.1 %.
  expect_same_run(plan, 1000, 8192, 0.022);
}

}  // namespace
}  // namespace polyarch::sim
