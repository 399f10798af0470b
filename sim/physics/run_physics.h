#pragma once
// From a simulated run to its physics: energy by action (account_energy), then an optional
// repricing hook (DVFS supply scaling), the power trace, temperatures, and temperature-dependent
// leakage. One sequence for nominal and DVFS runs.
#include <functional>

#include "sim/energy/power_trace.h"
#include "sim/physics/chip_physics.h"
#include "sim/result.h"
#include "sim/thermal/block_simulation.h"

namespace polyarch::sim {

// `reprice` runs after account_energy; `density_by_unit` shapes each op's power over time
// (build_power_trace).
void add_energy_power_thermal(const ChipPhysics& chip, RunResult& result,
                              double power_window_s, sim::thermal::InitialTemperature initial,
                              const std::function<void(sim::RunResult&)>& reprice = {},
                              const std::map<std::string, PowerDensity>& density_by_unit = {});

}  // namespace polyarch::sim
