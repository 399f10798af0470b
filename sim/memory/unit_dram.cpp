#include "sim/memory/unit_dram.h"

#include "base/error.h"

namespace polyarch::sim {

MemoryView memory_view(const DramChannel& dram, double clock_ghz) {
  double bytes_per_second = 0;
  if (!dram.unlimited_bandwidth()) {
    constexpr int64_t kProbeBytes = int64_t{1} << 30;
    const double seconds = dram.occupancy(kProbeBytes).to_seconds();
    bytes_per_second = seconds > 0 ? static_cast<double>(kProbeBytes) / seconds : 0.0;
  }
  return memory_view(bytes_per_second, dram.latency().to_seconds(), clock_ghz);
}

DramChannel& require_dram(SharedResources& resources, const std::string& unit_description) {
  if (resources.dram == nullptr) {
    throw_runtime({}, unit_description + " created without a DRAM channel");
  }
  return *resources.dram;
}

}  // namespace polyarch::sim
