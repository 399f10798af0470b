#include "sim/dvfs/dvfs_controller.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/energy/energy_accounting.h"
#include "sim/energy/power_trace.h"
#include "sim/kernel/simulation.h"
#include "sim/physics/run_physics.h"

namespace polyarch::sim {

namespace {

// Time-weighted mean of `value(level)` over [from_s, to_s] (its value at from_s when empty).
template <typename Value>
double mean_over(const DvfsSteps& steps, double from_s, double to_s, Value value) {
  const auto level_at = [&](double time_s) {
    int level = 0;
    for (const DvfsStep& step : steps) {
      if (step.from_s <= time_s) level = step.level;
    }
    return level;
  };
  if (!(to_s > from_s)) return value(level_at(from_s));
  double weighted = 0.0;
  double cursor = from_s;
  int level = level_at(from_s);
  for (const DvfsStep& step : steps) {
    if (step.from_s <= from_s) continue;
    if (step.from_s >= to_s) break;
    weighted += value(level) * (step.from_s - cursor);
    cursor = step.from_s;
    level = step.level;
  }
  weighted += value(level) * (to_s - cursor);
  return weighted / (to_s - from_s);
}

double throttled_fraction(const DvfsSteps& steps, double latency_s) {
  return mean_over(steps, 0.0, latency_s, [](int level) { return level > 0 ? 1.0 : 0.0; });
}

// One window grid for every round: rounds agree up to their first differing decision only
// if they sample the same windows, so the window is widened once, up front, to fit the slowest
// possible run (every unit at the slowest level) in the power trace's window limit.
double stable_window_s(const sim::RunResult& nominal, const DvfsPolicy& policy,
                       double window_s) {
  const double slowest_s = nominal.summary.latency_s / policy.levels.back().clock_scale;
  return std::max(window_s, slowest_s / static_cast<double>(kMaxPowerWindows));
}

// The time of the first step where two schedules differ (nullopt when they are equal).
std::optional<double> first_difference_s(const DvfsSteps& a, const DvfsSteps& b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t index = 0; index < common; ++index) {
    if (!(a[index] == b[index])) return std::min(a[index].from_s, b[index].from_s);
  }
  if (a.size() > common) return a[common].from_s;
  if (b.size() > common) return b[common].from_s;
  return std::nullopt;
}

}  // namespace

DvfsSteps dvfs_steps_from_temperatures(const std::vector<double>& celsius, double window_s,
                                       const DvfsPolicy& policy, const DvfsSteps& kept,
                                       double kept_until_s) {
  DvfsSteps steps;
  int level = 0;
  for (const DvfsStep& step : kept) {
    if (step.from_s > kept_until_s) break;
    steps.push_back(step);
    level = step.level;
  }
  if (celsius.empty() || !(window_s > 0)) return steps;
  const int slowest = static_cast<int>(policy.levels.size()) - 1;
  const double run_s = static_cast<double>(celsius.size()) * window_s;
  for (int64_t sample = 1;; ++sample) {
    const double time_s = static_cast<double>(sample) * policy.interval_s;
    if (time_s >= run_s) break;
    if (time_s <= kept_until_s) continue;
    // The temperature at the end of the window the sample falls in (the trace's resolution).
    const auto window = std::min(celsius.size() - 1, static_cast<std::size_t>(time_s / window_s));
    int next = level;
    if (celsius[window] > policy.trip_c && level < slowest) ++next;
    if (celsius[window] < policy.release_c && level > 0) --next;
    if (next == level) continue;
    level = next;
    steps.push_back({time_s, level});
  }
  return steps;
}

sim::ClockSchedule clock_schedule_of(const DvfsSteps& steps, const DvfsPolicy& policy) {
  sim::ClockSchedule schedule;
  for (const DvfsStep& step : steps) {
    schedule.push_back({step.from_s, policy.levels[static_cast<std::size_t>(step.level)].clock_scale});
  }
  return schedule;
}

void scale_energy_for_voltage(sim::RunResult& result,
                              const std::map<std::string, DvfsSteps>& steps_by_unit,
                              const DvfsPolicy& policy) {
  if (!result.summary.energy_j) return;
  const auto clock = [&](int level) {
    return policy.levels[static_cast<std::size_t>(level)].clock_scale;
  };
  const auto clock_times_vdd_squared = [&](int level) {
    const double vdd = policy.levels[static_cast<std::size_t>(level)].vdd_scale;
    return clock(level) * vdd * vdd;
  };
  std::map<std::string, sim::EnergyByAction> op_change;  // by unit
  for (sim::OpResult& op : result.ops) {
    auto steps = steps_by_unit.find(op.unit);
    if (steps == steps_by_unit.end() || !op.energy_j) continue;
    const double cycle_s = 1.0 / (op.unit_clock_ghz * 1e9);
    const double from_s = static_cast<double>(op.start_cycle) * cycle_s;
    const double to_s = static_cast<double>(op.end_cycle) * cycle_s;
    // Dynamic energy per cycle goes with V^2, and the cycles are denser where the clock is
    // faster: the cycle-weighted mean of V^2.
    const double vdd_squared = mean_over(steps->second, from_s, to_s, clock_times_vdd_squared) /
                               mean_over(steps->second, from_s, to_s, clock);
    for (auto& [name, joules] : op.energy_by_action) {
      if (name == "dram" || name == "leakage") continue;
      const double scaled = joules * vdd_squared;
      op_change[op.unit][name] += scaled - joules;
      joules = scaled;
    }
    op.energy_j = energy_total(op.energy_by_action);
  }
  sim::EnergyByAction run_energy;
  for (sim::UnitResult& unit : result.units) {
    for (const auto& [name, change] : op_change[unit.name]) unit.energy_by_action[name] += change;
    unit.energy_j = energy_total(unit.energy_by_action);
    for (const auto& [name, joules] : unit.energy_by_action) run_energy[name] += joules;
  }
  result.summary.energy_by_action = run_energy;
  result.summary.energy_j = energy_total(run_energy);
  if (result.summary.latency_s > 0) {
    result.summary.avg_power_w = *result.summary.energy_j / result.summary.latency_s;
  }
}

RunResult simulate_with_dvfs(const ChipPhysics& chip, const SystemSpec& nominal,
                             const mapping::Program& program, const ir::Graph& graph,
                             double power_window_s) {
  const DvfsPolicy& policy = *chip.dvfs;
  std::map<std::string, DvfsSteps> steps;  // empty: nominal everywhere
  std::map<std::string, double> kept_until_s;  // per unit: decisions through here are final
  sim::DvfsTrace trace;
  sim::RunResult result;
  while (trace.iterations < policy.max_iterations) {
    ++trace.iterations;
    SystemSpec system = nominal;
    for (const auto& [unit, unit_steps] : steps) {
      system.clock_schedules[unit] = clock_schedule_of(unit_steps, policy);
    }
    result = sim::simulate(system, program, graph);
    if (trace.iterations == 1) power_window_s = stable_window_s(result, policy, power_window_s);
    std::map<std::string, PowerDensity> density_by_unit;
    for (const auto& [unit, unit_steps] : steps) {
      for (const DvfsStep& step : unit_steps) {
        const DvfsLevel& level = policy.levels[static_cast<std::size_t>(step.level)];
        density_by_unit[unit].push_back(
            {step.from_s, level.clock_scale * level.vdd_scale * level.vdd_scale});
      }
    }
    add_energy_power_thermal(
        chip, result, power_window_s, sim::thermal::InitialTemperature::kAmbient,
        [&](sim::RunResult& run) { scale_energy_for_voltage(run, steps, policy); },
        density_by_unit);
    if (!result.thermal) break;  // no temperatures: nothing for the controllers to act on
    std::map<std::string, DvfsSteps> next;
    for (std::size_t block = 0; block < result.thermal->blocks.size(); ++block) {
      const std::string& unit = result.thermal->blocks[block];
      const DvfsSteps& ran = steps[unit];
      DvfsSteps unit_steps = dvfs_steps_from_temperatures(
          result.thermal->celsius[block], result.power->window_s, policy, ran, kept_until_s[unit]);
      kept_until_s[unit] = first_difference_s(ran, unit_steps).value_or(kept_until_s[unit]);
      next[unit] = std::move(unit_steps);
    }
    std::erase_if(steps, [](const auto& entry) { return entry.second.empty(); });
    std::erase_if(next, [](const auto& entry) { return entry.second.empty(); });
    if (next == steps) {
      trace.settled = true;
      break;
    }
    if (trace.iterations == policy.max_iterations) break;  // keep the steps this result ran
    steps = std::move(next);
  }
  for (const sim::UnitResult& unit : result.units) {
    sim::DvfsUnitTrace unit_trace;
    unit_trace.unit = unit.name;
    if (auto found = steps.find(unit.name); found != steps.end()) {
      for (const DvfsStep& step : found->second) {
        unit_trace.step_from_s.push_back(step.from_s);
        unit_trace.step_level.push_back(step.level);
      }
      unit_trace.throttled_fraction = throttled_fraction(found->second, result.summary.latency_s);
    }
    trace.units.push_back(std::move(unit_trace));
  }
  if (!trace.settled && result.thermal) {
    result.summary.energy_notes.push_back(
        "DVFS schedule still changing after " + std::to_string(policy.max_iterations) +
        " rounds; the last round's schedule is reported");
  }
  result.dvfs = std::move(trace);
  return result;
}

}  // namespace polyarch::sim
