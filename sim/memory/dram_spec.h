#pragma once
// The simple DRAM description of arch YAML v1: an ideal channel with a bandwidth and a latency.
#include <string>

namespace polyarch::sim {

struct DramSpec {
  std::string kind = "ddr4";
  double bandwidth_gbps = 25.6;  // GB/s (10^9 bytes per second); 0 = unlimited
  double latency_ns = 100.0;
  int channels = 1;
  double capacity_gib = 8.0;
  // A DRAM timing preset (sim/memory/dram/presets.h) whose measured streaming efficiency
  // scales bandwidth_gbps: refresh and row switches keep real DRAM below its pin bandwidth.
  // Empty: the channel sustains bandwidth_gbps.
  std::string timing_preset;
  double efficiency = 1.0;  // sustained / peak bandwidth

  double sustained_bandwidth_gbps() const { return bandwidth_gbps * efficiency; }
};

// The on-chip path between units and DRAM.
struct InterconnectSpec {
  std::string kind = "bus";
  double bandwidth_gbps = 0.0;  // 0 = unlimited
  int latency_cycles = 0;       // in the SoC clock
  // How a unit's result reaches a consumer on another unit (mapping/partition/transfer_cost.h):
  // "shared_dram" (every unit reads and writes the one DRAM; only the hand-over latency) or
  // "copy" (each unit has its own memory; the bytes also cross the interconnect).
  std::string transfers = "shared_dram";
};

}  // namespace polyarch::sim
