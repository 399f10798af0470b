#include "sim/thermal/package_config.h"

namespace polyarch::sim::thermal {

namespace {

// Generous physical bounds: they catch unit mistakes (mm for m) without judging designs.
constexpr double kMaxThicknessM = 1.0;
constexpr double kMaxSideM = 10.0;
constexpr double kMaxConductivity = 1e5;  // diamond is ~2e3 W/(m·K)
constexpr double kMaxHeatCapacity = 1e9;  // J/(m³·K); metals are ~3.5e6

// A physical quantity that must be above zero (a zero thickness or conductivity makes the RC
// network singular).
double positive(MapReader& reader, const std::string& key, double fallback, double max_value) {
  const double value = reader.optional_double(key, fallback, 0.0, max_value);
  if (value <= 0.0) throw_bad_input(reader.required(key).where(), "'" + key + "' must be > 0");
  return value;
}

void read_material(MapReader& reader, MaterialLayer& layer) {
  layer.thickness_m = positive(reader, "thickness_m", layer.thickness_m, kMaxThicknessM);
  layer.conductivity = positive(reader, "conductivity", layer.conductivity, kMaxConductivity);
  layer.volumetric_heat_capacity = positive(reader, "volumetric_heat_capacity",
                                            layer.volumetric_heat_capacity, kMaxHeatCapacity);
}

void parse_material(const ConfigNode* node, MaterialLayer& layer) {
  if (node == nullptr) return;
  MapReader reader(*node);
  read_material(reader, layer);
  reader.finish();
}

void parse_square(const ConfigNode* node, SquareLayer& layer) {
  if (node == nullptr) return;
  MapReader reader(*node);
  layer.side_m = positive(reader, "side_m", layer.side_m, kMaxSideM);
  read_material(reader, layer);
  reader.finish();
}

void parse_convection(const ConfigNode* node, Convection& convection) {
  if (node == nullptr) return;
  MapReader reader(*node);
  convection.r_k_per_w = positive(reader, "r_k_per_w", convection.r_k_per_w, 1e6);
  convection.c_j_per_k = positive(reader, "c_j_per_k", convection.c_j_per_k, 1e9);
  reader.finish();
}

}  // namespace

PackageConfig parse_package_config(const ConfigNode& thermal_section) {
  PackageConfig config;
  if (thermal_section.is_null()) return config;  // `thermal:` with nothing under it: defaults
  MapReader reader(thermal_section);
  config.model.kind = reader.optional_enum("model", "block", {"block", "grid"}) == "grid"
                          ? ThermalModelKind::kGrid
                          : ThermalModelKind::kBlock;
  config.model.grid_rows = static_cast<int>(reader.optional_int("grid_rows", 64, 1, kMaxGridCells));
  config.model.grid_cols = static_cast<int>(reader.optional_int("grid_cols", 64, 1, kMaxGridCells));
  if (config.model.grid_rows * config.model.grid_cols > kMaxGridCells) {
    const ConfigNode* rows = thermal_section.find("grid_rows");  // one of the two is set
    throw_bad_input((rows ? rows : thermal_section.find("grid_cols"))->where(),
                    "grid_rows x grid_cols is " +
                        std::to_string(config.model.grid_rows * config.model.grid_cols) +
                        " cells; at most " + std::to_string(kMaxGridCells) + " are supported");
  }
  config.ambient_k = positive(reader, "ambient_k", config.ambient_k, 1e4);
  config.sampling_interval_s =
      positive(reader, "sampling_interval_s", config.sampling_interval_s, 1e6);
  parse_material(reader.optional("die"), config.die);
  parse_material(reader.optional("tim"), config.tim);
  parse_square(reader.optional("spreader"), config.spreader);
  parse_square(reader.optional("sink"), config.sink);
  parse_convection(reader.optional("convection"), config.convection);
  reader.finish();
  // HotSpot's package model puts the sink's outer ring around the spreader: it needs room.
  if (config.spreader.side_m > config.sink.side_m) {
    const ConfigNode* where = thermal_section.find("spreader");
    throw_bad_input(where ? where->where() : thermal_section.where(),
                    "the spreader (side " + std::to_string(config.spreader.side_m) +
                        " m) is wider than the sink (side " + std::to_string(config.sink.side_m) +
                        " m)");
  }
  return config;
}

PackageConfig load_package_config(const std::filesystem::path& path) {
  ConfigNode root = load_config_with_base(path);
  const ConfigNode* section = root.is_map() ? root.find("thermal") : nullptr;
  if (section == nullptr) {
    throw_bad_input({path.string(), 0, 0, ""},
                    "no `thermal:` section (a thermal config file holds `thermal:` at its top)");
  }
  return parse_package_config(*section);
}

}  // namespace polyarch::sim::thermal
