#include "sim/energy/energy_accounting.h"

#include <algorithm>
#include <map>

#include "sim/energy/clock_network.h"

namespace polyarch::sim {

namespace {

void add_into(sim::EnergyByAction& into, const sim::EnergyByAction& energy) {
  for (const auto& [action, joules] : energy) into[action] += joules;
}

}  // namespace

double energy_total(const sim::EnergyByAction& energy) {
  double sum = 0.0;
  for (const auto& [action, joules] : energy) sum += joules;
  return sum;
}

void account_energy(const ChipPhysics& chip, RunResult& result) {
  const TechTable& tech = chip.tech_table();
  const EnergyContext context{tech, chip.dram_kind};
  result.summary.technology = tech.node;
  if (!chip.tech->note.empty()) result.summary.energy_notes.push_back(chip.tech->note);

  bool complete = true;
  std::map<std::string, double> busy_seconds;
  std::map<std::string, sim::EnergyByAction> unit_energy;
  for (sim::OpResult& op : result.ops) {
    const UnitPhysics* unit = chip.find_unit(op.unit);
    std::optional<sim::EnergyByAction> energy = unit ? unit->op_energy(op, context) : std::nullopt;
    if (!energy) {
      complete = false;
      continue;
    }
    op.energy_by_action = *energy;
    op.energy_j = energy_total(*energy);
    add_into(unit_energy[op.unit], *energy);
    busy_seconds[op.unit] += op.latency_s();
  }

  sim::EnergyByAction run_energy;
  for (sim::UnitResult& unit_result : result.units) {
    const UnitPhysics* unit = chip.find_unit(unit_result.name);
    std::optional<double> area = unit ? unit->area_mm2(tech) : std::nullopt;
    if (!area) {
      complete = false;
      continue;
    }
    unit_result.area_mm2 = *area;
    sim::EnergyByAction energy = unit_energy[unit_result.name];
    // A powered unit leaks while it waits for work too (no power gating in this model).
    const double idle_s = std::max(0.0, result.summary.latency_s - busy_seconds[unit_result.name]);
    energy["leakage"] += tech.leakage_w(*area) * idle_s;
    // A clocked unit's clock runs for the whole run, busy or idle (no clock gating modelled).
    if (const std::optional<double> bits = unit->clocked_bits()) {
      energy["clock"] = clock_network_j(tech, *bits, unit_result.total_cycles);
    }
    unit_result.energy_by_action = energy;
    unit_result.energy_j = energy_total(energy);
    add_into(run_energy, energy);
  }

  if (!complete) {
    result.summary.energy_notes.push_back(
        "a unit kind without an energy model ran part of the workload; totals are null");
    return;
  }
  result.summary.energy_by_action = run_energy;
  result.summary.energy_j = energy_total(run_energy);
  if (result.summary.latency_s > 0.0) {
    result.summary.avg_power_w = *result.summary.energy_j / result.summary.latency_s;
  }
}

}  // namespace polyarch::sim
