#include "sim/thermal/thermal_run.h"

#include <algorithm>
#include <cmath>

#include "sim/thermal/block_simulation.h"
#include "sim/thermal/grid_simulation.h"

namespace polyarch::sim {

namespace {

constexpr double kKelvinAtZeroCelsius = 273.15;

}  // namespace

std::optional<sim::thermal::Floorplan> floorplan_from_units(const sim::RunResult& result) {
  double total_m2 = 0;
  for (const sim::UnitResult& unit : result.units) {
    if (!unit.area_mm2 || *unit.area_mm2 <= 0) return std::nullopt;
    total_m2 += *unit.area_mm2 * 1e-6;
  }
  if (result.units.empty()) return std::nullopt;
  sim::thermal::Floorplan floorplan;
  floorplan.file = "floorplan generated from unit areas";
  const double height_m = std::sqrt(total_m2);
  double left_m = 0;
  for (const sim::UnitResult& unit : result.units) {
    sim::thermal::FloorplanBlock block;
    block.name = unit.name;
    block.height_m = height_m;
    block.width_m = *unit.area_mm2 * 1e-6 / height_m;
    block.left_m = left_m;
    left_m += block.width_m;
    floorplan.blocks.push_back(block);
  }
  return floorplan;
}

std::optional<ThermalTrace> run_thermal(const ChipPhysics& chip, const RunResult& result,
                                             sim::thermal::InitialTemperature initial) {
  if (!result.power) return std::nullopt;
  const std::optional<sim::thermal::Floorplan> floorplan = floorplan_from_units(result);
  if (!floorplan) return std::nullopt;
  const sim::PowerTrace& power = *result.power;
  sim::thermal::PackageConfig package = chip.thermal.value_or(sim::thermal::PackageConfig{});
  package.sampling_interval_s = power.window_s;
  sim::thermal::PowerTrace samples;
  samples.block_count = floorplan->block_count();
  const std::size_t windows = power.watts.front().size();
  for (std::size_t window = 0; window < windows; ++window) {
    for (std::size_t block = 0; block < power.blocks.size(); ++block) {
      samples.watts.push_back(power.watts[block][window]);
    }
  }
  // The arch's `thermal: {model: grid, grid_rows, grid_cols}` asks for HotSpot's grid model;
  // each block then reads its centre cells as HotSpot's default grid_map_mode does.
  const sim::thermal::BlockThermalResult thermal =
      package.model.kind == sim::thermal::ThermalModelKind::kGrid
          ? sim::thermal::simulate_grid_thermal(
                *floorplan, samples, package, initial,
                sim::thermal::GridSize{package.model.grid_rows, package.model.grid_cols})
          : sim::thermal::simulate_block_thermal(
                *floorplan, samples, package, initial);
  sim::ThermalTrace trace;
  trace.floorplan = floorplan->file;
  trace.blocks = power.blocks;
  trace.celsius.assign(power.blocks.size(), std::vector<double>(windows));
  for (std::size_t block = 0; block < power.blocks.size(); ++block) {
    trace.steady_c.push_back(thermal.steady_k[block] - kKelvinAtZeroCelsius);
    for (std::size_t window = 0; window < windows; ++window) {
      trace.celsius[block][window] =
          thermal.transient_k[window * power.blocks.size() + block] - kKelvinAtZeroCelsius;
    }
  }
  return trace;
}

}  // namespace polyarch::sim
