#pragma once
// `polyarch thermal`: HotSpot's floorplan and power-trace formats through the compact thermal
// model (block or grid), the steady state and the transient trace as CSV.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace polyarch::driver {

struct ThermalFilesRequest {
  std::filesystem::path floorplan;                 // HotSpot .flp
  std::filesystem::path power;                     // HotSpot .ptrace
  std::optional<std::filesystem::path> config;     // YAML with a `thermal:` section
  std::optional<std::string> model;                // block or grid; overrides the config's
  std::optional<std::string> grid;                 // ROWSxCOLS; overrides the config's
  std::string init = "steady";                     // steady or ambient
};

struct ThermalFilesOutcome {
  std::string steady_csv;     // `block,kelvin`
  std::string transient_csv;  // block names, then one row of kelvin per sample
  std::string model;          // the model that ran: block or grid
  double uncovered_fraction = 0.0;  // of the floorplan's bounding box, covered by no block
  std::string hottest_block;        // in the steady state
  double hottest_k = 0.0;
  std::size_t samples = 0;
  double sampling_interval_s = 0.0;
};

// Bad input (exit 2) names the flag or the file, line and key.
ThermalFilesOutcome run_thermal_files(const ThermalFilesRequest& request);

// Kelvin as the CSV files print it (three decimals).
std::string format_kelvin(double value);

}  // namespace polyarch::driver
