#pragma once
// DVFS: a controller per unit reads its floorplan block's temperature at
// the end of each power window and steps the unit's clock and supply down one level above the
// trip temperature, back up one level below the release temperature. The clocks feed the
// SystemC models (sim::ClockSchedule), so throttling shows up in latency; the supply scales
// dynamic energy by V^2. Because the schedule changes the timing that made the
// temperatures, the run is repeated (simulate -> energy -> temperature -> schedule) until the
// schedule reproduces itself. A round's decisions are right up to the first one that differs
// from the schedule it ran (the temperatures before it came from the same schedule), so each
// round keeps its schedule through that decision and redoes only what follows: the kept
// prefix grows every round and the rounds end.
#include <map>
#include <string>

#include "compiler/ir/graph.h"
#include "mapping/program/program.h"
#include "sim/dvfs/dvfs_policy.h"
#include "sim/kernel/simulation.h"
#include "sim/physics/chip_physics.h"
#include "sim/result.h"

namespace polyarch::sim {

// Level steps of one unit: from `from_s` on the unit runs at policy level `level`.
struct DvfsStep {
  double from_s = 0.0;
  int level = 0;
  bool operator==(const DvfsStep&) const = default;
};
using DvfsSteps = std::vector<DvfsStep>;

// The controller on one block's temperature trace (the end of each window of `window_s`),
// sampled every policy.interval_s: at each sample past the trip it steps one level slower, below
// the release one level faster; a decision holds from the sample on. Steps of `kept` up to
// `kept_until_s` are taken as they are and the controller goes on from their level after it.
DvfsSteps dvfs_steps_from_temperatures(const std::vector<double>& celsius, double window_s,
                                       const DvfsPolicy& policy,
                                       const DvfsSteps& kept = {}, double kept_until_s = 0.0);

// The clock a unit's SystemC model follows for these steps.
sim::ClockSchedule clock_schedule_of(const DvfsSteps& steps, const DvfsPolicy& policy);

// Reprices energy for the supply each op ran at: dynamic actions (everything but `dram` and
// `leakage`) by the cycle-weighted mean of vdd_scale^2. Leakage power is kept independent of
// the supply (to first order the leakage current is; P = V I would lower it a little under
// throttling, so this is an upper bound). Totals follow.
void scale_energy_for_voltage(sim::RunResult& result,
                              const std::map<std::string, DvfsSteps>& steps_by_unit,
                              const DvfsPolicy& policy);

// Runs `program` on `nominal` (the SoC at nominal clocks) under the chip's DVFS policy
// (chip.dvfs must be set): power trace in windows of
// `power_window_s`, thermal from a cold (ambient) start, temperature-dependent leakage, and
// result.dvfs saying what the controllers did.
RunResult simulate_with_dvfs(const ChipPhysics& chip, const SystemSpec& nominal,
                             const mapping::Program& program, const ir::Graph& graph,
                             double power_window_s);

}  // namespace polyarch::sim
