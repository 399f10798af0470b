// The DRAM as a unit sees it, in seconds and in cycles of the unit's clock.
#include "sim/memory/dram_view.h"

#include <gtest/gtest.h>

namespace polyarch::sim {
namespace {

TEST(DramView, PerClockBandwidthIsBytesPerSecondOverCyclesPerSecond) {
  // H100-like HBM3: 3.35 TB/s seen from a 1.675 GHz clock is 2000 bytes per cycle.
  const DramView dram{.dram_bytes_per_second = 3.35e12, .dram_latency_s = 0};
  EXPECT_DOUBLE_EQ(dram.view(1.675).dram_bytes_per_cycle, 2000.0);
}

TEST(DramView, LatencyRoundsToTheNearestWholeCycle) {
  EXPECT_EQ((DramView{.dram_bytes_per_second = 1e9, .dram_latency_s = 100.4e-9})
                .view(1.0)
                .dram_latency_cycles,
            100);
  EXPECT_EQ((DramView{.dram_bytes_per_second = 1e9, .dram_latency_s = 100.6e-9})
                .view(1.0)
                .dram_latency_cycles,
            101);
  EXPECT_EQ((DramView{.dram_bytes_per_second = 1e9, .dram_latency_s = 50e-9})
                .view(2.0)
                .dram_latency_cycles,
            100);
}

TEST(DramView, UnlimitedBandwidthStaysUnlimitedInEveryClock) {
  const DramView unlimited{.dram_bytes_per_second = 0, .dram_latency_s = 80e-9};
  EXPECT_EQ(unlimited.view(0.7).dram_bytes_per_cycle, 0.0);
  EXPECT_EQ(unlimited.view(0.7).dram_latency_cycles, 56);
}

}  // namespace
}  // namespace polyarch::sim
