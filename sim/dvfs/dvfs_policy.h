#pragma once
// An SoC's DVFS policy (arch YAML `dvfs:`): when a unit's floorplan block passes the trip
// temperature its clock and supply step down one level; below the release temperature they
// step back up (the gap is the hysteresis). Level 0 is nominal; `levels` lists the slower ones.
// The controller that applies it is sim/dvfs/dvfs_controller.h.
#include <vector>

#include "base/config_tree.h"

namespace polyarch::sim {

struct DvfsLevel {
  double clock_scale = 1.0;  // frequency over nominal
  double vdd_scale = 1.0;    // supply voltage over nominal
};

struct DvfsPolicy {
  double trip_c = 85.0;
  double release_c = 80.0;
  std::vector<DvfsLevel> levels;  // [0] = nominal {1, 1}, then the configured levels
  // The controller samples the temperature every interval_s (on a fixed grid from t = 0) and
  // moves at most one level per sample, as firmware governors do every few to 100 ms.
  double interval_s = 0.05;
  int max_iterations = 100;  // simulate -> temperature -> schedule rounds
};

// The parser's ranges, which archs/soc/soc_keys.cpp's table declares too.
inline constexpr double kDvfsLowestC = -273.0;
inline constexpr double kDvfsHighestC = 1000.0;
inline constexpr double kDvfsShortestIntervalS = 1e-9;
inline constexpr double kDvfsLongestIntervalS = 1e3;
inline constexpr int kDvfsMostIterations = 1000;

// Reads `dvfs:` {trip_c, release_c (< trip_c), levels: [{clock_scale, vdd_scale}, ...] with
// clock scales falling and in (0, 1), vdd scales in (0, 1], interval_s, max_iterations}. Errors name
// file:line:col and the key.
DvfsPolicy parse_dvfs_policy(const ConfigNode& node);

}  // namespace polyarch::sim
