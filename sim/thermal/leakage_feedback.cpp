#include "sim/thermal/leakage_feedback.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/energy/energy_accounting.h"
#include "sim/thermal/thermal_run.h"

namespace polyarch::sim {

namespace {

double action(const sim::EnergyByAction& actions, const std::string& name) {
  auto found = actions.find(name);
  return found == actions.end() ? 0.0 : found->second;
}

// The power trace split into the part that does not depend on temperature and the leakage at
// the reference temperature (build_power_trace spreads a unit's leakage evenly over the run).
struct SplitPower {
  std::vector<double> reference_leakage_w;   // [block]
  std::vector<std::vector<double>> other_w;  // [block][window]
};

SplitPower split_power(const sim::RunResult& result,
                       const std::map<std::string, std::size_t>& unit_of_block) {
  const sim::PowerTrace& power = *result.power;
  SplitPower split;
  for (std::size_t block = 0; block < power.blocks.size(); ++block) {
    const sim::UnitResult& unit = result.units[unit_of_block.at(power.blocks[block])];
    const double leakage_w = action(unit.energy_by_action, "leakage") / result.summary.latency_s;
    split.reference_leakage_w.push_back(leakage_w);
    std::vector<double> other = power.watts[block];
    for (double& watts : other) watts = std::max(0.0, watts - leakage_w);
    split.other_w.push_back(std::move(other));
  }
  return split;
}

std::vector<std::vector<double>> leakage_factors(const sim::TechTable& tech,
                                                 const sim::ThermalTrace& thermal) {
  std::vector<std::vector<double>> factors;
  for (const std::vector<double>& block : thermal.celsius) {
    std::vector<double>& row = factors.emplace_back();
    for (double celsius : block) row.push_back(tech.leakage_temperature_factor(celsius));
  }
  return factors;
}

double largest_change(const sim::ThermalTrace& before, const sim::ThermalTrace& after) {
  double change = 0.0;
  for (std::size_t block = 0; block < before.blocks.size(); ++block) {
    change = std::max(change, std::abs(after.steady_c[block] - before.steady_c[block]));
    for (std::size_t window = 0; window < before.celsius[block].size(); ++window) {
      change = std::max(change,
                        std::abs(after.celsius[block][window] - before.celsius[block][window]));
    }
  }
  return change;
}

double hottest(const sim::ThermalTrace& thermal) {
  double peak = *std::max_element(thermal.steady_c.begin(), thermal.steady_c.end());
  for (const std::vector<double>& block : thermal.celsius) {
    for (double celsius : block) peak = std::max(peak, celsius);
  }
  return peak;
}

double mean_over(const std::vector<double>& values, std::size_t first, std::size_t last) {
  double sum = 0.0;
  for (std::size_t index = first; index <= last; ++index) sum += values[index];
  return sum / static_cast<double>(last - first + 1);
}

// Reprices leakage with the converged factors: a unit by its block's mean over the run, an op
// by the mean over the windows it spans; totals follow.
void reprice_leakage(sim::RunResult& result, const std::vector<std::vector<double>>& factors,
                     const std::map<std::string, std::size_t>& block_of_unit) {
  const double window_s = result.power->window_s;
  std::map<std::string, double> op_leakage_before;
  std::map<std::string, double> op_leakage_after;
  for (sim::OpResult& op : result.ops) {
    if (!op.energy_j || !op.energy_by_action.contains("leakage")) continue;
    const std::vector<double>& block = factors[block_of_unit.at(op.unit)];
    const double cycle_s = 1.0 / (op.unit_clock_ghz * 1e9);
    const auto window_at = [&](int64_t cycle) {
      const auto window = static_cast<std::size_t>(static_cast<double>(cycle) * cycle_s / window_s);
      return std::min(window, block.size() - 1);
    };
    const std::size_t first = window_at(op.start_cycle);
    const std::size_t last = std::max(first, window_at(op.end_cycle));
    op_leakage_before[op.unit] += op.energy_by_action["leakage"];
    op.energy_by_action["leakage"] *= mean_over(block, first, last);
    op_leakage_after[op.unit] += op.energy_by_action["leakage"];
    op.energy_j = energy_total(op.energy_by_action);
  }
  sim::EnergyByAction run_energy;
  for (sim::UnitResult& unit : result.units) {
    const std::vector<double>& block = factors[block_of_unit.at(unit.name)];
    // The ops' leakage as repriced, plus the idle leakage at the block's mean over the run.
    const double idle_j = unit.energy_by_action["leakage"] - op_leakage_before[unit.name];
    unit.energy_by_action["leakage"] =
        op_leakage_after[unit.name] + idle_j * mean_over(block, 0, block.size() - 1);
    unit.energy_j = energy_total(unit.energy_by_action);
    for (const auto& [name, joules] : unit.energy_by_action) run_energy[name] += joules;
  }
  result.summary.energy_by_action = run_energy;
  result.summary.energy_j = energy_total(run_energy);
  result.summary.avg_power_w = *result.summary.energy_j / result.summary.latency_s;
}

}  // namespace

void apply_leakage_feedback(const ChipPhysics& chip, RunResult& result,
                            const LeakageFeedbackOptions& options) {
  if (!result.power || !result.thermal || !result.summary.energy_j ||
      result.summary.latency_s <= 0.0) {
    return;
  }
  std::map<std::string, std::size_t> unit_of_block;
  std::map<std::string, std::size_t> block_of_unit;
  for (std::size_t index = 0; index < result.units.size(); ++index) {
    unit_of_block[result.units[index].name] = index;
  }
  for (std::size_t block = 0; block < result.power->blocks.size(); ++block) {
    block_of_unit[result.power->blocks[block]] = block;
  }
  const TechTable& tech = chip.tech_table();
  const SplitPower split = split_power(result, unit_of_block);
  sim::LeakageFeedback feedback;
  std::vector<std::vector<double>> factors = leakage_factors(tech, *result.thermal);
  while (feedback.iterations < options.max_iterations) {
    ++feedback.iterations;
    for (std::size_t block = 0; block < split.other_w.size(); ++block) {
      for (std::size_t window = 0; window < split.other_w[block].size(); ++window) {
        result.power->watts[block][window] =
            split.other_w[block][window] + split.reference_leakage_w[block] * factors[block][window];
      }
    }
    std::optional<sim::ThermalTrace> next = run_thermal(chip, result, options.initial);
    if (!next) return;
    const double change = largest_change(*result.thermal, *next);
    result.thermal = std::move(next);
    factors = leakage_factors(tech, *result.thermal);
    if (hottest(*result.thermal) > options.runaway_c) {
      feedback.runaway = true;
      break;
    }
    if (change < options.tolerance_k) {
      feedback.converged = true;
      break;
    }
  }
  for (const std::vector<double>& block : factors) {
    feedback.mean_factor.push_back(mean_over(block, 0, block.size() - 1));
  }
  reprice_leakage(result, factors, block_of_unit);
  if (feedback.runaway) {
    result.summary.energy_notes.push_back(
        "thermal runaway: leakage heats the die past " + std::to_string(options.runaway_c) +
        " C; temperatures and leakage are those of the last iteration");
  } else if (!feedback.converged) {
    result.summary.energy_notes.push_back("temperature-dependent leakage did not converge in " +
                                          std::to_string(options.max_iterations) + " iterations");
  }
  result.thermal->leakage = std::move(feedback);
}

}  // namespace polyarch::sim
