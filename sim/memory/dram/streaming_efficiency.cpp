#include "sim/memory/dram/streaming_efficiency.h"

#include <map>
#include <mutex>
#include <string>

#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {

double streaming_efficiency(const DramConfig& config, int64_t refresh_intervals) {
  DramSystem system(config);
  const int64_t bursts_per_pc = refresh_intervals * config.timing.tREFI / config.burst_cycles();
  const int64_t total_bytes =
      bursts_per_pc * config.bytes_per_burst() * config.pseudo_channel_count();
  constexpr int64_t kRequestBytes = 256;
  for (int64_t addr = 0; addr < total_bytes; addr += kRequestBytes) {
    system.enqueue({.addr = addr, .bytes = kRequestBytes, .arrival_cycle = 0});
  }
  system.run();
  return system.bandwidth_efficiency();
}

double preset_streaming_efficiency(std::string_view preset_name) {
  // Four refresh intervals put the figure within 1% of a twelve-interval run of the whole
  // device (tests/sim/dram/efficiency_test.cpp) at a small fraction of the cost.
  constexpr int64_t kRefreshIntervals = 4;
  static std::mutex mutex;
  static std::map<std::string, double, std::less<>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(preset_name);
  if (found != cache.end()) return found->second;
  // Channels are independent and a sequential stream spreads evenly over them, so one channel
  // shows the whole device's efficiency at a fraction of the cost.
  DramConfig one_channel = preset(preset_name);
  one_channel.organization.channels = 1;
  const double efficiency = streaming_efficiency(one_channel, kRefreshIntervals);
  cache.emplace(std::string(preset_name), efficiency);
  return efficiency;
}

}  // namespace polyarch::sim::dram
