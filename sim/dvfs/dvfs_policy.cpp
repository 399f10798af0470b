#include "sim/dvfs/dvfs_policy.h"

#include "base/error.h"

namespace polyarch::sim {

DvfsPolicy parse_dvfs_policy(const ConfigNode& node) {
  MapReader reader(node);
  DvfsPolicy policy;
  policy.trip_c = reader.required_double("trip_c", kDvfsLowestC, kDvfsHighestC);
  policy.release_c = reader.required_double("release_c", kDvfsLowestC, kDvfsHighestC);
  if (policy.release_c >= policy.trip_c) {
    throw_bad_input(reader.required("release_c").where(),
                    "dvfs.release_c must be below dvfs.trip_c (the hysteresis)");
  }
  policy.interval_s = reader.optional_double("interval_s", policy.interval_s,
                                             kDvfsShortestIntervalS, kDvfsLongestIntervalS);
  policy.max_iterations = static_cast<int>(
      reader.optional_int("max_iterations", policy.max_iterations, 1, kDvfsMostIterations));
  const ConfigNode& levels = reader.required("levels");
  if (!levels.is_sequence() || levels.items().empty()) {
    throw_bad_input(levels.where(), "dvfs.levels: expected a non-empty list of "
                                    "{clock_scale, vdd_scale}, got " + levels.describe_type());
  }
  policy.levels.push_back({});
  for (const ConfigNode& item : levels.items()) {
    MapReader level_reader(item);
    DvfsLevel level;
    level.clock_scale = level_reader.required_double("clock_scale", 1e-3, 1.0);
    level.vdd_scale = level_reader.required_double("vdd_scale", 1e-3, 1.0);
    level_reader.finish();
    if (level.clock_scale >= policy.levels.back().clock_scale) {
      throw_bad_input(item.where(), "dvfs.levels: each level must be slower than the one before "
                                    "(clock_scale below 1 and falling)");
    }
    policy.levels.push_back(level);
  }
  reader.finish();
  return policy;
}

}  // namespace polyarch::sim
