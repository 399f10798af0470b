#pragma once
// The thermal package around the die: interface material, heat spreader, heat sink and the
// convection to ambient, in SI units. The defaults are HotSpot's (the example configuration
// shipped with HotSpot 6/7, `example.config`), so a floorplan run with defaults here and in
// HotSpot gives the same temperatures.
#include <filesystem>

#include "base/config_tree.h"

namespace polyarch::sim::thermal {

// A slab of material: thickness, thermal conductivity in W/(m·K) and volumetric heat capacity
// in J/(m³·K).
struct MaterialLayer {
  double thickness_m = 0.0;
  double conductivity = 0.0;
  double volumetric_heat_capacity = 0.0;
};

// A square slab (spreader, sink) of side `side_m`, centred under the die.
struct SquareLayer : MaterialLayer {
  double side_m = 0.0;
};

struct Convection {
  double r_k_per_w = 0.1;    // sink to ambient, whole sink
  double c_j_per_k = 140.4;  // lumped air-side capacitance, whole sink
};

// Which of HotSpot's two models to run (its -model_type, -grid_rows, -grid_cols; HotSpot's
// defaults): `polyarch run` follows it, `polyarch thermal --model/--grid` override it.
enum class ThermalModelKind { kBlock, kGrid };
// The most grid cells polyarch accepts: the band Cholesky of a grid grows with cells x the
// shorter side (128 x 128: 65,548 nodes, a 270 MB factor, several seconds).
constexpr int kMaxGridCells = 128 * 128;
struct ThermalModelChoice {
  ThermalModelKind kind = ThermalModelKind::kBlock;
  int grid_rows = 64;
  int grid_cols = 64;
};

struct PackageConfig {
  ThermalModelChoice model;  // keys `model: block|grid`, `grid_rows`, `grid_cols`
  double ambient_k = 318.15;
  double sampling_interval_s = 0.00333;
  MaterialLayer die{0.00015, 130.0, 1630300.0};
  MaterialLayer tim{2.0e-5, 4.0, 4.0e6};
  SquareLayer spreader{{0.001, 400.0, 3.55e6}, 0.03};
  SquareLayer sink{{0.0069, 400.0, 3.55e6}, 0.06};
  Convection convection;
};

// Reads the value of a `thermal:` key (a map; every key optional, defaults as above). Unknown
// keys, wrong types, non-positive values and a spreader wider than the sink are bad input
// naming file:line:col and the key path.
PackageConfig parse_package_config(const ConfigNode& thermal_section);

// Reads the `thermal:` section of a file: an arch YAML (with `base:` includes resolved) or a
// file holding only `thermal:`. A file without that section is bad input.
PackageConfig load_package_config(const std::filesystem::path& path);

}  // namespace polyarch::sim::thermal
