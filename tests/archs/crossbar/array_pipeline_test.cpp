// The array pipeline and its ADC pool against timelines derived by hand: reads overlap the
// previous slice's conversions, a sample-and-hold holds a read until its conversions are done,
// a tile's arrays queue for a shared pool, and the last slice's add comes after its
// conversions.
#include "archs/crossbar/array_pipeline.h"

#include <gtest/gtest.h>

#include "archs/crossbar/adc_pool.h"
#include "tests/archs/crossbar/small_unit.h"

namespace polyarch::archs::crossbar {
namespace {

using test_units::small_unit;

std::vector<TileTrack> one_tile(TileLoad load) { return {{{std::move(load)}, 1}}; }

TEST(AdcPool, JobsTakeTheEarliestFreeConverterAndQueueWhenAllAreBusy) {
  AdcPool pool(2);
  // Three 10 ns jobs on two ADCs: two run at once, the third waits for the first free one.
  EXPECT_DOUBLE_EQ(pool.convert(0.0, 3, 10.0), 20.0);
  // At 5 ns one ADC frees at 10, the other at 20: a new job runs 10..20.
  EXPECT_DOUBLE_EQ(pool.convert(5.0, 1, 10.0), 20.0);
  EXPECT_DOUBLE_EQ(pool.busy_ns(), 20.0);
  // Idle from 20 to 30, then busy again for 10 ns.
  EXPECT_DOUBLE_EQ(pool.convert(30.0, 2, 10.0), 40.0);
  EXPECT_DOUBLE_EQ(pool.busy_ns(), 30.0);
}

TEST(AdcPool, AMillionJobsOnOneConverterTakeOneStepPerRoundNotPerJob) {
  // Jobs of one request are assigned in whole rounds, so a tile of 2^20 arrays sharing one ADC
  // (an absurd but valid unit) is converted at once instead of job by job.
  CrossbarParams params = small_unit();
  params.arrays_per_tile = int64_t{1} << 20;
  params.adc.per_tile = 1;
  const WaveTimeline timeline =
      simulate_waves(params, params.input_slices(), one_tile({{int64_t{1} << 20, 64}}), {0});
  EXPECT_DOUBLE_EQ(timeline.ready_ns[0], 100.0 + 8 * 64.0 * (int64_t{1} << 20) + 5.0);
}

TEST(ArrayPipeline, ReadBoundWavesFollowEachOtherAtSlicesTimesTheRead) {
  const CrossbarParams params = small_unit();
  const WaveTimeline timeline =
      simulate_waves(params, params.input_slices(), one_tile({{1, 64}}), {0, 0, 0});
  // Slice s is read in [100 s, 100 (s + 1)] and converted in the next 64 ns, overlapping the
  // next read; a vector's 8 slices end at 800 + 64, its add at + 5; the next wave reads on.
  ASSERT_EQ(timeline.ready_ns.size(), 3u);
  EXPECT_DOUBLE_EQ(timeline.ready_ns[0], 800.0 + 64.0 + 5.0);
  EXPECT_DOUBLE_EQ(timeline.ready_ns[1], 1600.0 + 64.0 + 5.0);
  EXPECT_DOUBLE_EQ(timeline.ready_ns[2], 2400.0 + 64.0 + 5.0);
  EXPECT_DOUBLE_EQ(timeline.read_busy_ns, 2400.0);
  EXPECT_DOUBLE_EQ(timeline.adc_busy_ns, 24 * 64.0);
}

TEST(ArrayPipeline, ArraysSharingOneAdcWaitForItAndTheSampleAndHoldStallsTheirReads) {
  CrossbarParams params = small_unit();
  params.adc.per_tile = 1;
  const WaveTimeline timeline =
      simulate_waves(params, params.input_slices(), one_tile({{4, 64}}), {0, 0});
  // Four arrays' groups on one ADC: 4 x 64 = 256 ns per slice. Slice 0 latches at 100 and
  // converts until 356; every later read waits for its hold to empty, so slice s is converted
  // by 100 + 256 (s + 1).
  EXPECT_DOUBLE_EQ(timeline.ready_ns[0], 100.0 + 8 * 256.0 + 5.0);
  EXPECT_DOUBLE_EQ(timeline.ready_ns[1], 100.0 + 16 * 256.0 + 5.0);
  EXPECT_DOUBLE_EQ(timeline.adc_busy_ns, 16 * 256.0);
}

TEST(ArrayPipeline, APartlyUsedArrayLendsItsConvertersToTheTile) {
  CrossbarParams params = small_unit();
  params.cols = 128;  // two 64-column groups per array
  params.arrays_per_tile = 2;
  params.adc.per_tile = 3;
  // A full array (two groups) and one using 64 columns (one group): three jobs on three ADCs
  // run at once, so no slice waits for a converter: read-bound at 8 x 100 per wave.
  const WaveTimeline shared =
      simulate_waves(params, params.input_slices(), one_tile({{1, 128}, {1, 64}}), {0});
  EXPECT_DOUBLE_EQ(shared.ready_ns[0], 800.0 + 64.0 + 5.0);
  // Two full arrays need four jobs on three ADCs: the fourth waits 64 ns (128 ns per slice,
  // converter-bound).
  const WaveTimeline full =
      simulate_waves(params, params.input_slices(), one_tile({{2, 128}}), {0});
  EXPECT_DOUBLE_EQ(full.ready_ns[0], 100.0 + 8 * 128.0 + 5.0);
}

TEST(ArrayPipeline, AnIdleTileAddsNothingAndAPartialWaveUsesFewerConverters) {
  CrossbarParams params = small_unit();
  params.adc.per_tile = 1;
  // Full waves load four arrays, the last wave one: 8 x 256 then 8 x 64 per wave; the partial
  // wave's first read overlaps the previous wave's last conversion.
  const std::vector<TileTrack> tracks = {{{{{4, 64}}, {{1, 64}}}, 1}};
  const WaveTimeline timeline = simulate_waves(params, params.input_slices(), tracks, {0, 1});
  const double full_end = 100.0 + 8 * 256.0;
  EXPECT_DOUBLE_EQ(timeline.ready_ns[0], full_end + 5.0);
  // The partial wave's slice 0 read ended at 100 + 7 x 256 + 100 (read during the last
  // full slice's conversion); it latches when that conversion ends, then 64 ns per slice,
  // reads (100 ns) now setting the pace: 7 more reads after the first latch.
  EXPECT_DOUBLE_EQ(timeline.ready_ns[1], full_end + 7 * 100.0 + 64.0 + 5.0);
}

}  // namespace
}  // namespace polyarch::archs::crossbar
