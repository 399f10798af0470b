#include "driver/thermal_files.h"

#include <cstdio>

#include "base/error.h"
#include "sim/thermal/block_simulation.h"
#include "sim/thermal/grid_simulation.h"

namespace polyarch::driver {

std::string format_kelvin(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

namespace {

std::string steady_csv(const sim::thermal::Floorplan& floorplan,
                       const sim::thermal::BlockThermalResult& result) {
  std::string csv = "block,kelvin\n";
  for (int b = 0; b < result.block_count; ++b) {
    csv += floorplan.blocks[b].name + "," + format_kelvin(result.steady_k[b]) + "\n";
  }
  return csv;
}

std::string transient_csv(const sim::thermal::Floorplan& floorplan,
                          const sim::thermal::BlockThermalResult& result) {
  std::string csv;
  for (int b = 0; b < result.block_count; ++b) {
    csv += (b == 0 ? "" : ",") + floorplan.blocks[b].name;
  }
  csv += "\n";
  for (std::size_t i = 0; i < result.transient_k.size(); ++i) {
    csv += format_kelvin(result.transient_k[i]);
    csv += (i + 1) % result.block_count == 0 ? "\n" : ",";
  }
  return csv;
}

sim::thermal::InitialTemperature parse_init(const std::string& text) {
  if (text == "steady") return sim::thermal::InitialTemperature::kSteady;
  if (text == "ambient") return sim::thermal::InitialTemperature::kAmbient;
  throw_bad_input({}, "--init expects steady or ambient, got '" + text + "'");
}

// ROWSxCOLS, both positive integers, at most kMaxGridCells cells.
sim::thermal::GridSize parse_grid(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  auto count = [&](const std::string& part) {
    if (part.empty() || part.size() > 6 ||
        part.find_first_not_of("0123456789") != std::string::npos) {
      return 0;
    }
    return std::stoi(part);
  };
  const int rows = x == std::string::npos ? 0 : count(text.substr(0, x));
  const int cols = x == std::string::npos ? 0 : count(text.substr(x + 1));
  if (rows < 1 || cols < 1) {
    throw_bad_input(
        {}, "--grid expects ROWSxCOLS with positive integers (e.g. 64x64), got '" + text + "'");
  }
  if (static_cast<long long>(rows) * cols > sim::thermal::kMaxGridCells) {
    throw_bad_input({}, "--grid " + text + " has " +
                            std::to_string(static_cast<long long>(rows) * cols) +
                            " cells; at most " + std::to_string(sim::thermal::kMaxGridCells) +
                            " are supported");
  }
  return {rows, cols};
}

}  // namespace

ThermalFilesOutcome run_thermal_files(const ThermalFilesRequest& request) {
  // --model and --grid override the config's `model`, `grid_rows` and `grid_cols`.
  if (request.model && *request.model != "block" && *request.model != "grid") {
    throw_bad_input({}, "--model expects block or grid, got '" + *request.model + "'");
  }
  const sim::thermal::GridSize grid_option = parse_grid(request.grid.value_or("64x64"));
  const sim::thermal::InitialTemperature initial = parse_init(request.init);
  const sim::thermal::PackageConfig package =
      request.config ? sim::thermal::load_package_config(*request.config)
                     : sim::thermal::PackageConfig{};
  ThermalFilesOutcome outcome;
  outcome.model = request.model.value_or(
      package.model.kind == sim::thermal::ThermalModelKind::kGrid ? "grid" : "block");
  if (request.grid && outcome.model != "grid") {
    throw_bad_input({}, "--grid needs --model grid (or `model: grid` in the config)");
  }
  const sim::thermal::GridSize grid_size =
      request.grid ? grid_option
                   : sim::thermal::GridSize{package.model.grid_rows, package.model.grid_cols};
  const sim::thermal::Floorplan floorplan = sim::thermal::load_floorplan(request.floorplan);
  const sim::thermal::PowerTrace trace = sim::thermal::load_power_trace(request.power, floorplan);
  const sim::thermal::BlockThermalResult result =
      outcome.model == "grid"
          ? sim::thermal::simulate_grid_thermal(floorplan, trace, package, initial, grid_size)
          : sim::thermal::simulate_block_thermal(floorplan, trace, package, initial);
  outcome.steady_csv = steady_csv(floorplan, result);
  outcome.transient_csv = transient_csv(floorplan, result);
  outcome.uncovered_fraction =
      floorplan.gap_area_m2() / (floorplan.width_m() * floorplan.height_m());
  int hottest = 0;
  for (int b = 1; b < result.block_count; ++b) {
    if (result.steady_k[b] > result.steady_k[hottest]) hottest = b;
  }
  outcome.hottest_block = floorplan.blocks[hottest].name;
  outcome.hottest_k = result.steady_k[hottest];
  outcome.samples = trace.sample_count();
  outcome.sampling_interval_s = package.sampling_interval_s;
  return outcome;
}

}  // namespace polyarch::driver
