#pragma once
// `power_cap_w:` on a multi-unit SoC: the HEFT schedule planned under the cap
// (mapping/partition/power_budget.h), each op's power from the planning energy estimate
// (sim/energy/planned_op_energy.h) over its estimated run, every unit's leakage as the static
// floor. The trace records the plan with and without the cap; the simulated power trace's peak
// is added once the run has one (measured_peak_w).
#include <optional>
#include <vector>

#include "archs/soc/soc_config.h"
#include "mapping/partition/list_scheduler.h"
#include "sim/result.h"

namespace polyarch::driver {

struct CappedSchedule {
  mapping::Schedule schedule;
  sim::PowerCapTrace trace;
};

// nullopt when HEFT cannot run (a unit without estimates), as schedule_heft. `options` give the
// transfers and micro-batches (their `power` is ignored).
std::optional<CappedSchedule> schedule_under_power_cap(
    const archs::SocConfig& soc, const ir::Graph& graph,
    const std::vector<mapping::UnitCapability>& units, const mapping::ScheduleOptions& options,
    double cap_w);

// The highest total power of any window of the trace (all blocks summed).
std::optional<double> peak_trace_power_w(const std::optional<sim::PowerTrace>& trace);

}  // namespace polyarch::driver
