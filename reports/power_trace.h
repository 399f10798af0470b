#pragma once
// Bins a run's energy into a power trace per unit (each unit one floorplan block).
#include <optional>

#include "sim/result.h"

namespace polyarch::reports {

// At most this many windows: a longer run gets proportionally wider windows.
inline constexpr int64_t kMaxPowerWindows = 10000;

// Each op's dynamic energy (energy_j less its leakage) spread evenly over [start, end) of its
// unit's clock; each unit's leakage (its energy_by_action "leakage" over the run) as constant
// power. nullopt when the run has no energy (a unit kind without an energy model).
std::optional<sim::PowerTrace> build_power_trace(const sim::RunResult& result, double window_s);

}  // namespace polyarch::reports
