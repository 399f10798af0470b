#pragma once
// A unit's clock frequency over simulated time, as a DVFS controller sets it: piecewise
// constant, each step a fraction of the unit's nominal frequency from a time on. The DVFS
// policy that makes these lives in sim/dvfs/dvfs_controller.h; the kernel hands a unit its schedule through
// SharedResources so the unit's UnitClock stretches its cycles.
#include <vector>

namespace polyarch::sim {

struct ClockStep {
  double from_s = 0.0;       // simulated time the step starts
  double clock_scale = 1.0;  // frequency over the nominal frequency, in (0, 1]
};

// Steps in increasing from_s; before the first step (and when empty) the clock is nominal.
using ClockSchedule = std::vector<ClockStep>;

}  // namespace polyarch::sim
