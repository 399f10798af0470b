// Bandwidth the controller reaches against the preset's peak, and what refresh and row switches
// allow it. The figures are printed so docs/dram.md can quote them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "base/random_draw.h"
#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"
#include "sim/memory/dram/streaming_efficiency.h"

namespace polyarch::sim::dram {
namespace {

double random_efficiency(const DramConfig& config, uint64_t seed) {
  DramSystem system(config);
  std::mt19937_64 random(seed);
  auto address = [&](auto& engine) {
    return polyarch::random_int(engine, 0, config.capacity_bytes() - 1);
  };
  const int64_t requests = 2000 * config.pseudo_channel_count();
  for (int64_t i = 0; i < requests; ++i) {
    system.enqueue(
        {.addr = address(random), .bytes = config.bytes_per_burst(), .arrival_cycle = 0});
  }
  system.run();
  return system.bandwidth_efficiency();
}

// The efficiency streaming must reach under the bank-interleaved mapping, from the preset's
// own parameters:
//  - refresh: per tREFI the data bus loses at most tRFC plus draining and reopening around it
//    (the last row's tRAS, tRP before REF, tRCD + tCL after it);
//  - row switches: the next row's PRE + ACT are issued while the queue (queue_depth bursts of
//    tBL each) drains, so a switch costs only what tRP + tRCD exceed that lookahead; a switch
//    comes every bank_groups x bursts_per_row bursts;
//  - activation rate: four ACTs per tFAW must feed bank_groups rows' worth of data.
double streaming_efficiency_bound(const DramConfig& config) {
  const DramTiming& t = config.timing;
  const int64_t burst = config.burst_cycles();
  const double refresh_loss = static_cast<double>(t.tRAS + t.tRP + t.tRFC + t.tRCD + t.tCL);
  const double refresh_factor = 1.0 - refresh_loss / static_cast<double>(t.tREFI);
  const int64_t lookahead = (config.controller.queue_depth - 1) * burst;
  const int64_t switch_loss = std::max<int64_t>(0, t.tRP + t.tRCD - lookahead);
  const int64_t switch_period = config.organization.bank_groups * config.bursts_per_row() * burst;
  const double switch_factor =
      1.0 - static_cast<double>(switch_loss) / static_cast<double>(switch_period + switch_loss);
  const double activate_factor =
      std::min(1.0, 4.0 * static_cast<double>(config.bursts_per_row() * burst) /
                        static_cast<double>(t.tFAW));
  return refresh_factor * switch_factor * activate_factor;
}

TEST(DramEfficiency, StreamingReadReachesPeakLessRefreshAndRowSwitches) {
  for (std::string_view name : preset_names()) {
    DramConfig config = preset(name);
    config.controller.address_scheme = AddressScheme::kBankInterleaved;
    config.controller.record_commands = false;
    const double measured = streaming_efficiency(config, 12);
    const double bound = streaming_efficiency_bound(config);
    // No schedule can use the cycles a refresh blocks.
    const double refresh_ceiling =
        1.0 - static_cast<double>(config.timing.tRFC) / static_cast<double>(config.timing.tREFI);
    std::printf("[ streaming ] %-12s measured %.4f  bound %.4f  refresh ceiling %.4f\n",
                config.name.c_str(), measured, bound, refresh_ceiling);
    EXPECT_GE(measured, bound) << name;
    EXPECT_LE(measured, refresh_ceiling + 0.002) << name;
  }
}

TEST(DramEfficiency, RandomAccessGetsFarLessThanStreaming) {
  uint64_t seed = 7;
  for (std::string_view name : preset_names()) {
    DramConfig config = preset(name);
    config.controller.record_commands = false;
    const double streaming = streaming_efficiency(config, 4);
    const double random = random_efficiency(config, seed);
    std::printf("[ random    ] %-12s measured %.4f  (streaming %.4f) seed %llu\n",
                config.name.c_str(), random, streaming, static_cast<unsigned long long>(seed));
    EXPECT_LT(random, 0.6 * streaming) << name << " seed " << seed;
    ++seed;
  }
}

struct PolicyRun {
  double mean_latency_cycles = 0;
  int64_t makespan_cycles = 0;
};

// Requests arriving one every `interval` cycles, at the given addresses, under `policy`.
PolicyRun run_paced(DramConfig config, PagePolicy policy, const std::vector<int64_t>& addresses,
                    int64_t interval) {
  config.controller.page_policy = policy;
  config.controller.record_commands = false;
  DramSystem system(config);
  for (size_t i = 0; i < addresses.size(); ++i) {
    system.enqueue({.addr = addresses[i],
                    .bytes = config.bytes_per_burst(),
                    .arrival_cycle = static_cast<int64_t>(i) * interval});
  }
  system.run();
  const DramStats stats = system.stats();
  return {
      static_cast<double>(stats.total_burst_latency_cycles) / static_cast<double>(stats.bursts()),
      stats.last_completion_cycle};
}

TEST(DramEfficiency, OpenPageBeatsClosedPageOnStreaming) {
  for (std::string_view name : {"ddr4_3200", "hbm2e_3200"}) {
    const DramConfig config = preset(name);
    std::vector<int64_t> addresses;
    for (int64_t i = 0; i < 20000; ++i) addresses.push_back(i * config.bytes_per_burst());
    // Arrivals at 80% of one pseudo-channel's burst rate: the queue is mostly empty, so the
    // closed-page controller closes rows the next request would have hit.
    const int64_t interval = config.burst_cycles() * 5 / 4 / config.pseudo_channel_count() + 1;
    const PolicyRun open = run_paced(config, PagePolicy::kOpen, addresses, interval);
    const PolicyRun closed = run_paced(config, PagePolicy::kClosed, addresses, interval);
    std::printf("[ policy    ] %-12s streaming latency open %.1f closed %.1f cycles\n",
                config.name.c_str(), open.mean_latency_cycles, closed.mean_latency_cycles);
    EXPECT_LT(open.mean_latency_cycles, closed.mean_latency_cycles) << name;
    EXPECT_LE(open.makespan_cycles, closed.makespan_cycles) << name;
  }
}

TEST(DramEfficiency, ClosedPageBeatsOrEqualsOpenPageOnRandomRowConflicts) {
  const uint64_t seed = 21;
  for (std::string_view name : {"ddr4_3200", "hbm2e_3200"}) {
    const DramConfig config = preset(name);
    std::mt19937_64 random(seed);
    auto address = [&](auto& engine) {
      return polyarch::random_int(engine, 0, config.capacity_bytes() - 1);
    };
    std::vector<int64_t> addresses;
    for (int i = 0; i < 5000; ++i) addresses.push_back(address(random));
    const int64_t interval = 2 * (config.timing.tRAS + config.timing.tRP);
    const PolicyRun open = run_paced(config, PagePolicy::kOpen, addresses, interval);
    const PolicyRun closed = run_paced(config, PagePolicy::kClosed, addresses, interval);
    std::printf("[ policy    ] %-12s random latency open %.1f closed %.1f cycles\n",
                config.name.c_str(), open.mean_latency_cycles, closed.mean_latency_cycles);
    EXPECT_LE(closed.mean_latency_cycles, open.mean_latency_cycles) << name << " seed " << seed;
  }
}

TEST(DramEfficiency, PresetEfficiencyFromOneChannelMatchesTheWholeDevice) {
  for (std::string_view name : preset_names()) {
    const double whole = streaming_efficiency(preset(name), 12);
    const double one_channel = preset_streaming_efficiency(name);
    std::printf("[ preset    ] %-12s one channel %.4f  whole device %.4f\n",
                std::string(name).c_str(), one_channel, whole);
    EXPECT_NEAR(one_channel, whole, 0.01) << name;
  }
}

}  // namespace
}  // namespace polyarch::sim::dram
