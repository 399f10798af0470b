#pragma once
// Turns a simulation's activity counts into energy: each op's actions through its unit's energy
// model, each unit's sum plus leakage while idle and its clock network over the run, and the
// run's total and average power.
#include "sim/physics/chip_physics.h"
#include "sim/result.h"

namespace polyarch::sim {

// Fills energy_j and energy_by_action of ops, units and the summary, units' area_mm2, and
// summary.avg_power_w = energy_j / latency_s. Ops or units whose kind has no energy model keep
// null energy, and then so does the summary.
void account_energy(const ChipPhysics& chip, RunResult& result);

// The sum of an energy-by-action map (J).
double energy_total(const sim::EnergyByAction& energy);

}  // namespace polyarch::sim
