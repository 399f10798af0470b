#include "driver/power_capped_schedule.h"

#include <algorithm>

#include "sim/energy/planned_op_energy.h"

namespace polyarch::driver {

std::optional<CappedSchedule> schedule_under_power_cap(
    const archs::SocConfig& soc, const ir::Graph& graph,
    const std::vector<mapping::UnitCapability>& units, const mapping::ScheduleOptions& options,
    double cap_w) {
  const sim::TechTable& tech = soc.tech.table;
  mapping::PowerCap cap;
  for (const auto& unit : soc.units) {
    if (std::optional<double> area = unit->area_mm2(tech)) cap.static_w += tech.leakage_w(*area);
  }
  const std::string dram_kind = soc.dram.kind;
  cap.op_joules = [&tech, dram_kind](const ir::Op& op, int) {
    return sim::planned_op_joules(op, tech, dram_kind);
  };
  // The same plan without the cap, for the report's comparison.
  mapping::ScheduleOptions planning = options;
  planning.power = &cap;
  const std::optional<mapping::Schedule> uncapped = mapping::schedule_heft(graph, units, planning);
  cap.cap_w = cap_w;
  std::optional<mapping::Schedule> capped = mapping::schedule_heft(graph, units, planning);
  if (!capped || !uncapped) return std::nullopt;
  CappedSchedule result{std::move(*capped), {}};
  sim::PowerCapTrace& trace = result.trace;
  trace.cap_w = cap_w;
  trace.static_w = cap.static_w;
  trace.planned_peak_w = result.schedule.power->peak_w;
  trace.uncapped_planned_peak_w = uncapped->power->peak_w;
  trace.max_op_w = result.schedule.power->max_op_w;
  trace.planned_makespan_s = result.schedule.makespan_s;
  trace.uncapped_planned_makespan_s = uncapped->makespan_s;
  trace.serialised = result.schedule.power->serialised;
  trace.ops_over_cap = result.schedule.power->ops_over_cap;
  return result;
}

std::optional<double> peak_trace_power_w(const std::optional<sim::PowerTrace>& trace) {
  if (!trace || trace->watts.empty()) return std::nullopt;
  double peak = 0.0;
  for (std::size_t window = 0; window < trace->watts.front().size(); ++window) {
    double total = 0.0;
    for (const std::vector<double>& block : trace->watts) total += block[window];
    peak = std::max(peak, total);
  }
  return peak;
}

}  // namespace polyarch::driver
