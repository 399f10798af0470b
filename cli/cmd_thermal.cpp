// `polyarch thermal`: reads HotSpot's floorplan and power-trace formats, runs the compact thermal
// model and writes the steady state and the transient trace as CSV.
#include "cli/cmd_thermal.h"

#include <iostream>

#include "base/error.h"
#include "cli/arguments.h"
#include "driver/thermal_files.h"
#include "reports/output_files.h"

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
  driver::ThermalFilesRequest request;
  request.model = parsed.value("model");
  request.grid = parsed.value("grid");
  request.init = parsed.value("init").value_or("steady");
  request.floorplan = parsed.required("floorplan");
  request.power = parsed.required("power");
  const std::string out = parsed.required("out");
  if (auto config = parsed.value("config")) request.config = *config;
  const driver::ThermalFilesOutcome outcome = driver::run_thermal_files(request);

  reports::write_files_atomically(
      out, {{"steady.csv", outcome.steady_csv}, {"transient.csv", outcome.transient_csv}});
  if (outcome.uncovered_fraction > 1e-4) {
    std::cout << "note: " << driver::format_kelvin(100.0 * outcome.uncovered_fraction)
              << "% of the floorplan's bounding box is not covered by any block (allowed; "
              << (outcome.model == "grid"
                      ? "gap cells hold no power but conduct as die, as in HotSpot's "
                        "grid model)\n"
                      : "no heat flows laterally across gaps)\n");
  }
  std::cout << "steady state: hottest block '" << outcome.hottest_block << "' at "
            << driver::format_kelvin(outcome.hottest_k) << " K\n"
            << "wrote " << out << "/steady.csv and " << out << "/transient.csv ("
            << outcome.samples << " samples of " << outcome.sampling_interval_s << " s)\n";
  return 0;
}

}  // namespace polyarch::cli
