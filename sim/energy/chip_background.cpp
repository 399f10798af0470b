#include "sim/energy/chip_background.h"

#include <algorithm>

#include "sim/energy/energy_accounting.h"

namespace polyarch::sim {

EnergyByAction chip_background_energy(const ChipPhysics& chip, double modelled_area_mm2,
                                      double latency_s) {
  const TechTable& tech = chip.tech_table();
  EnergyByAction energy;
  if (chip.dram_channels > 0) {
    energy["dram_background"] = static_cast<double>(chip.dram_channels) *
                                tech.dram_background_w_per_channel(chip.dram_kind) * latency_s;
  }
  if (chip.die_area_mm2) {
    const double uncore_mm2 = std::max(0.0, *chip.die_area_mm2 - modelled_area_mm2);
    energy["uncore_leakage"] = tech.leakage_w(uncore_mm2) * latency_s;
  }
  return energy;
}

void add_chip_background_energy(const ChipPhysics& chip, RunResult& result) {
  if (!result.summary.energy_j || result.summary.latency_s <= 0.0) return;
  double modelled_mm2 = 0.0;
  for (const UnitResult& unit : result.units) modelled_mm2 += unit.area_mm2.value_or(0.0);
  const EnergyByAction background =
      chip_background_energy(chip, modelled_mm2, result.summary.latency_s);
  for (const auto& [action, joules] : background) result.summary.energy_by_action[action] += joules;
  result.summary.energy_j = energy_total(result.summary.energy_by_action);
  result.summary.avg_power_w = *result.summary.energy_j / result.summary.latency_s;
}

}  // namespace polyarch::sim
