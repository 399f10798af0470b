#pragma once
// Bins a run's energy into a power trace per unit (each unit one floorplan block).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/result.h"

namespace polyarch::sim {

// At most this many windows: a longer run gets proportionally wider windows.
inline constexpr int64_t kMaxPowerWindows = 10000;

// Each op's dynamic energy (energy_j less its leakage) spread evenly over [start, end) of its
// unit's clock; each unit's leakage and clock network (its energy_by_action "leakage" and
// "clock" over the run) as constant power. nullopt when the run has no energy (a unit kind without an energy model).
// With `density` for a unit (DVFS: clock_scale x vdd_scale^2 from each step's time on, 1 before
// the first step), an op's dynamic energy follows that density over its interval instead.
struct PowerDensityStep {
  double from_s = 0.0;
  double density = 1.0;
};
using PowerDensity = std::vector<PowerDensityStep>;

std::optional<sim::PowerTrace> build_power_trace(
    const sim::RunResult& result, double window_s,
    const std::map<std::string, PowerDensity>& density_by_unit = {});

// The integral of a density over [from_s, to_s].
double integrate_density(const PowerDensity& density, double from_s, double to_s);

}  // namespace polyarch::sim
