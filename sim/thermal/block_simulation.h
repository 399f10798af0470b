#pragma once
// A HotSpot-style trace run in block mode: the steady state at the trace's average power and
// the transient temperature at the end of every sampling interval, in kelvin.
#include <vector>

#include "sim/thermal/floorplan.h"
#include "sim/thermal/package_config.h"
#include "sim/thermal/power_trace.h"

namespace polyarch::sim::thermal {

enum class InitialTemperature {
  kSteady,   // the steady state of the average power as HotSpot's -init_file run starts from it
  kAmbient,  // every node at ambient
  // Every node at the exact steady state. The same as kSteady in block mode; in grid mode
  // kSteady is HotSpot's start (block-level values spread uniformly over each block's cells,
  // grid_simulation.h), which relaxes over the first intervals, while this one stays put.
  kSteadyEveryNode,
};

struct BlockThermalResult {
  int block_count = 0;
  std::vector<double> steady_k;     // per block, floorplan order
  std::vector<double> transient_k;  // sample-major: [sample * block_count + block]
};

BlockThermalResult simulate_block_thermal(const Floorplan& floorplan, const PowerTrace& trace,
                                          const PackageConfig& package, InitialTemperature initial);

}  // namespace polyarch::sim::thermal
