#include "sim/energy/power_trace.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace polyarch::sim {

namespace {

double action(const sim::EnergyByAction& actions, const std::string& name) {
  auto found = actions.find(name);
  return found == actions.end() ? 0.0 : found->second;
}

}  // namespace

double integrate_density(const PowerDensity& density, double from_s, double to_s) {
  double integral = 0.0;
  double cursor = from_s;
  double value = 1.0;
  for (const PowerDensityStep& step : density) {
    if (step.from_s <= from_s) {
      value = step.density;
      continue;
    }
    if (step.from_s >= to_s) break;
    integral += value * (step.from_s - cursor);
    cursor = step.from_s;
    value = step.density;
  }
  return integral + value * std::max(0.0, to_s - cursor);
}

std::optional<sim::PowerTrace> build_power_trace(
    const sim::RunResult& result, double window_s,
    const std::map<std::string, PowerDensity>& density_by_unit) {
  static const PowerDensity kUniform;
  const double latency = result.summary.latency_s;
  if (!result.summary.energy_j || latency <= 0 || !(window_s > 0)) return std::nullopt;
  sim::PowerTrace trace;
  // A run of exactly n windows (up to rounding of the division) gets n, not n + 1.
  constexpr double kRoundingSlack = 1e-9;
  auto windows = std::max<int64_t>(
      1, static_cast<int64_t>(std::ceil(latency / window_s - kRoundingSlack)));
  if (windows > kMaxPowerWindows) {
    windows = kMaxPowerWindows;
    window_s = latency / static_cast<double>(windows);
  }
  trace.window_s = window_s;
  std::map<std::string, std::size_t> block_of_unit;
  for (const sim::UnitResult& unit : result.units) {
    block_of_unit[unit.name] = trace.blocks.size();
    trace.blocks.push_back(unit.name);
    // Leakage and the clock network draw the same power in every window.
    const double constant_w =
        (action(unit.energy_by_action, "leakage") + action(unit.energy_by_action, "clock")) /
        latency;
    trace.watts.emplace_back(static_cast<std::size_t>(windows), constant_w);
  }
  for (const sim::OpResult& op : result.ops) {
    if (!op.energy_j) continue;
    const double dynamic_j = *op.energy_j - action(op.energy_by_action, "leakage");
    const double cycle_s = 1.0 / (op.unit_clock_ghz * 1e9);
    const double start = static_cast<double>(op.start_cycle) * cycle_s;
    const double end = static_cast<double>(op.end_cycle) * cycle_s;
    std::vector<double>& watts = trace.watts[block_of_unit.at(op.unit)];
    if (end <= start) {
      const auto window = std::min<int64_t>(static_cast<int64_t>(start / window_s), windows - 1);
      watts[static_cast<std::size_t>(window)] += dynamic_j / window_s;
      continue;
    }
    auto found = density_by_unit.find(op.unit);
    const PowerDensity& density = found == density_by_unit.end() ? kUniform : found->second;
    const double joules_per_density = dynamic_j / integrate_density(density, start, end);
    const auto first = static_cast<int64_t>(start / window_s);
    const auto last = std::min<int64_t>(static_cast<int64_t>(end / window_s), windows - 1);
    for (int64_t window = first; window <= last; ++window) {
      const double from = std::max(start, static_cast<double>(window) * window_s);
      const double to = std::min(end, static_cast<double>(window + 1) * window_s);
      if (to > from) {
        watts[static_cast<std::size_t>(window)] +=
            joules_per_density * integrate_density(density, from, to) / window_s;
      }
    }
  }
  return trace;
}

}  // namespace polyarch::sim
