#pragma once
// The DRAM description of an arch file: an ideal channel with a bandwidth and a latency
// (`simple`), or a JEDEC system simulated at the level of commands (`jedec`; sim/memory/dram/).
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "sim/memory/dram/config.h"

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
  // Which backend simulates the DRAM: "simple" (the queue of dram_channel.h, from the figures
  // above) or "jedec" (`jedec_config`'s controllers; bandwidth_gbps, latency_ns and efficiency
  // then describe it to the units' estimates).
  std::string model = "simple";
  std::optional<dram::DramConfig> jedec_config;
  // Where capacity_gib comes from in the arch file, for the capacity error.
  SourceLocation capacity_where;
  // jedec only: keep every DRAM command and replay it through the independent checker at the
  // end of a simulation, which then fails on a JEDEC timing violation.
  bool check_commands = false;
  // Lines a run reports about the description (memory.notes): keys of a DRAMsim3 file that
  // polyarch reads and leaves out.
  std::vector<std::string> notes;

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
