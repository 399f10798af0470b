// `polyarch thermal`: reads HotSpot's floorplan and power-trace formats, runs the compact thermal
// model and writes the steady state and the transient trace as CSV.
#include "cli/cmd_thermal.h"

#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/arguments.h"
#include "reports/output_files.h"
#include "sim/thermal/block_simulation.h"
#include "sim/thermal/grid_simulation.h"

namespace polyarch::cli {

namespace {

constexpr const char* kThermalHelp =
    R"(usage: polyarch thermal --floorplan F.flp --power P.ptrace [--config T.yaml]
                        [--model block|grid] [--grid ROWSxCOLS] [--init steady|ambient]
                        --out DIR

Runs HotSpot's compact thermal RC model (block or grid mode) on a HotSpot floorplan (.flp:
`name width height left bottom` in metres) and power trace (.ptrace: a header of block names,
then one line of watts per block per sampling interval), and writes
  DIR/steady.csv     `block,kelvin`: the steady state at the trace's average power
  DIR/transient.csv  a header of block names (floorplan order), then one row of kelvin per
                     sample: the temperature at the end of each sampling interval
Nothing is written on error.

options:
  --floorplan FILE  HotSpot .flp floorplan
  --power FILE      HotSpot .ptrace power trace
  --config FILE     YAML with a `thermal:` section (package, ambient, sampling interval);
                    HotSpot's defaults without it
  --model KIND      block (default): one node per block and layer; grid: the die, interface,
                    spreader and sink centre as ROWSxCOLS cell grids (HotSpot's grid model),
                    each block reported at its centre cells (HotSpot's default grid_map_mode)
  --grid ROWSxCOLS  grid resolution for --model grid (default 64x64, HotSpot's default)
                    --model and --grid override the config's `model: block|grid`,
                    `grid_rows` and `grid_cols`
  --init KIND       steady (default): start from the steady state, as HotSpot's -init_file
                    run does; ambient: start with every node at ambient
  --out DIR         output directory (created if missing)
)";

std::string format_kelvin(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

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

int thermal_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kThermalHelp;
    return 0;
  }
  Arguments parsed(args,
                   {{"floorplan"}, {"power"}, {"config"}, {"model"}, {"grid"}, {"init"}, {"out"}});
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  // --model and --grid override the config's `model`, `grid_rows` and `grid_cols`.
  const std::optional<std::string> model_option = parsed.value("model");
  if (model_option && *model_option != "block" && *model_option != "grid") {
    throw_bad_input({}, "--model expects block or grid, got '" + *model_option + "'");
  }
  const std::optional<std::string> grid_text = parsed.value("grid");
  const sim::thermal::GridSize grid_option = parse_grid(grid_text.value_or("64x64"));
  const sim::thermal::InitialTemperature initial =
      parse_init(parsed.value("init").value_or("steady"));
  const std::string floorplan_path = parsed.required("floorplan");
  const std::string power_path = parsed.required("power");
  const std::string out = parsed.required("out");

  const sim::thermal::PackageConfig package =
      parsed.value("config") ? sim::thermal::load_package_config(*parsed.value("config"))
                             : sim::thermal::PackageConfig{};
  const std::string model = model_option.value_or(
      package.model.kind == sim::thermal::ThermalModelKind::kGrid ? "grid" : "block");
  if (grid_text && model != "grid") {
    throw_bad_input({}, "--grid needs --model grid (or `model: grid` in the config)");
  }
  const sim::thermal::GridSize grid_size =
      grid_text ? grid_option
                : sim::thermal::GridSize{package.model.grid_rows, package.model.grid_cols};
  const sim::thermal::Floorplan floorplan = sim::thermal::load_floorplan(floorplan_path);
  const sim::thermal::PowerTrace trace = sim::thermal::load_power_trace(power_path, floorplan);
  const sim::thermal::BlockThermalResult result =
      model == "grid"
          ? sim::thermal::simulate_grid_thermal(floorplan, trace, package, initial, grid_size)
          : sim::thermal::simulate_block_thermal(floorplan, trace, package, initial);

  reports::write_files_atomically(out, {{"steady.csv", steady_csv(floorplan, result)},
                                        {"transient.csv", transient_csv(floorplan, result)}});
  const double die_area = floorplan.width_m() * floorplan.height_m();
  if (floorplan.gap_area_m2() > 1e-4 * die_area) {
    std::cout << "note: " << format_kelvin(100.0 * floorplan.gap_area_m2() / die_area)
              << "% of the floorplan's bounding box is not covered by any block (allowed; "
              << (model == "grid" ? "gap cells hold no power but conduct as die, as in HotSpot's "
                                    "grid model)\n"
                                  : "no heat flows laterally across gaps)\n");
  }
  int hottest = 0;
  for (int b = 1; b < result.block_count; ++b) {
    if (result.steady_k[b] > result.steady_k[hottest]) hottest = b;
  }
  std::cout << "steady state: hottest block '" << floorplan.blocks[hottest].name << "' at "
            << format_kelvin(result.steady_k[hottest]) << " K\n"
            << "wrote " << out << "/steady.csv and " << out << "/transient.csv ("
            << trace.sample_count() << " samples of " << package.sampling_interval_s << " s)\n";
  return 0;
}

}  // namespace polyarch::cli
