#include "sim/memory/jedec_dram_spec.h"

#include "sim/memory/dram/dram_yaml.h"
#include "sim/memory/dram/streaming_efficiency.h"

namespace polyarch::sim {

bool is_jedec_dram_map(const ConfigNode& node) {
  if (!node.is_map()) return false;
  for (const char* key : {"standard", "preset", "from", "organization", "controller"}) {
    if (node.find(key) != nullptr) return true;
  }
  const ConfigNode* timing = node.find("timing");
  return timing != nullptr && timing->is_map();
}

DramSpec read_jedec_dram_spec(const ConfigNode& node) {
  const dram::DramDescription description = dram::read_dram_map(node);
  const dram::DramConfig& config = description.config;
  DramSpec spec;
  spec.model = description.model;
  spec.kind = description.standard;
  spec.jedec_config = config;
  spec.bandwidth_gbps = config.peak_bandwidth_gbps();
  // Channels are independent and a sequential stream spreads evenly over them, so one channel
  // shows the whole device's efficiency (as preset_streaming_efficiency measures it).
  dram::DramConfig one_channel = config;
  one_channel.organization.channels = 1;
  one_channel.controller.record_commands = false;
  constexpr int64_t kRefreshIntervals = 4;
  spec.efficiency = dram::streaming_efficiency(one_channel, kRefreshIntervals);
  // A read to a closed bank: ACT, tRCD, RD, CL, then the burst (docs/dram.md).
  spec.latency_ns =
      static_cast<double>(config.timing.tRCD + config.timing.tCL + config.burst_cycles()) *
      config.clock_period_ns();
  spec.channels = config.organization.channels;
  spec.capacity_gib = static_cast<double>(config.capacity_bytes()) / (1024.0 * 1024.0 * 1024.0);
  spec.capacity_where = node.where();
  if (const ConfigNode* from = node.find("from")) {
    const std::string note = dram::unmodelled_note(from->scalar(), description.unmodelled_keys);
    if (!note.empty()) spec.notes.push_back(note);
  }
  return spec;
}

}  // namespace polyarch::sim
