#pragma once
// Runs the compact thermal model (sim/thermal: HotSpot's block mode, or its grid mode when the
// arch's `thermal:` section says `model: grid`) on a run's power trace: one floorplan block per
// unit, laid out from the units' areas, in the arch file's thermal package.
#include <optional>

#include "sim/physics/chip_physics.h"
#include "sim/result.h"
#include "sim/thermal/block_simulation.h"
#include "sim/thermal/floorplan.h"

namespace polyarch::sim {

// Blocks side by side in one row on a square-ish die: height sqrt(total area), each block's
// width its area / height, in unit order. nullopt when a unit has no area.
std::optional<sim::thermal::Floorplan> floorplan_from_units(const sim::RunResult& result);

// The steady state at the trace's average power (where the transient starts: the workload has
// been running for a while) and the temperature at the end of each power window; nullopt
// without a power trace or a floorplan.
// `initial` kAmbient instead starts the transient from a cold chip (DVFS: a sustained workload
// heats it until it crosses the trip point).
std::optional<sim::ThermalTrace> run_thermal(
    const ChipPhysics& chip, const RunResult& result,
    sim::thermal::InitialTemperature initial = sim::thermal::InitialTemperature::kSteadyEveryNode);

}  // namespace polyarch::sim
