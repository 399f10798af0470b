#include "archs/crossbar/params.h"

#include <algorithm>

#include "archs/common_keys.h"
#include "base/checked_math.h"
#include "sim/energy/tech_table.h"

namespace polyarch::archs::crossbar {

int64_t CrossbarParams::cells_per_weight() const {
  return ceil_div(weight_bits, cell.bits_per_cell) * (differential ? 2 : 1);
}

int64_t CrossbarParams::input_slices() const { return ceil_div(input_bits, dac_bits); }

double CrossbarParams::slice_ns() const {
  const double conversion_ns = static_cast<double>(adc.columns_per_adc) / adc.sample_rate_gsps;
  return std::max(read_ns, conversion_ns);
}

namespace {

constexpr int64_t kMaxCount = int64_t{1} << 24;
constexpr double kMaxEnergy = 1e6;

// An optional per-event energy; nullopt when absent (the technology table prices it).
std::optional<double> optional_energy(MapReader& reader, const std::string& key) {
  const ConfigNode* node = reader.optional(key);
  if (node == nullptr) return std::nullopt;
  return node->as_double(0.0, kMaxEnergy);
}

AdcParams parse_adc(MapReader& unit_reader) {
  AdcParams adc;
  MapReader reader(unit_reader.required("adc"));
  adc.bits = reader.required_int("bits", 1, 32);
  adc.columns_per_adc = reader.required_int("columns_per_adc", 1, kMaxCount);
  adc.sample_rate_gsps = reader.required_double("sample_rate_gsps", 1e-6, 1e3);
  adc.energy_pj = optional_energy(reader, "energy_pj");
  adc.area_mm2 = reader.optional_double("area_mm2", adc.area_mm2, 0.0, 1e3);
  adc.full_scale_fraction =
      reader.optional_double("full_scale_fraction", adc.full_scale_fraction, 1e-6, 1.0);
  reader.finish();
  return adc;
}

CellParams parse_cell(MapReader& unit_reader) {
  CellParams cell;
  MapReader reader(unit_reader.required("cell"));
  cell.device = reader.optional_enum("device", cell.device, sim::crossbar_cell_devices());
  cell.bits_per_cell = reader.required_int("bits_per_cell", 1, 8);
  cell.read_energy_fj = optional_energy(reader, "read_energy_fj");
  cell.write_energy_pj = optional_energy(reader, "write_energy_pj");
  cell.write_ns_per_row =
      reader.optional_double("write_ns_per_row", cell.write_ns_per_row, 0.0, 1e9);
  cell.endurance_cycles =
      reader.optional_double("endurance_cycles", cell.endurance_cycles, 1.0, 1e20);
  reader.finish();
  return cell;
}

}  // namespace

CrossbarParams parse_crossbar_params(MapReader& unit_reader, const std::string& unit_name) {
  CrossbarParams params;
  params.name = unit_name;
  params.tiles = unit_reader.required_int("tiles", 1, kMaxCount);
  params.arrays_per_tile = unit_reader.required_int("arrays_per_tile", 1, kMaxCount);
  params.rows = unit_reader.required_int("rows", 1, 1 << 16);
  params.cols = unit_reader.required_int("cols", 1, 1 << 16);
  params.cell = parse_cell(unit_reader);
  params.weight_bits = unit_reader.optional_int("weight_bits", params.weight_bits, 1, 64);
  params.input_bits = unit_reader.optional_int("input_bits", params.input_bits, 1, 64);
  params.dac_bits = unit_reader.optional_int("dac_bits", params.dac_bits, 1, 64);
  params.dac_energy_pj =
      unit_reader.optional_double("dac_energy_pj", params.dac_energy_pj, 0.0, 1e6);
  params.differential = unit_reader.optional_enum("signed_weights", "offset",
                                                  {"offset", "differential"}) == "differential";
  params.adc = parse_adc(unit_reader);
  params.read_ns = unit_reader.required_double("read_ns", 1e-6, 1e9);
  params.shift_add_energy_pj =
      unit_reader.optional_double("shift_add_energy_pj", params.shift_add_energy_pj, 0.0, 1e6);
  params.peripheral_ns =
      unit_reader.optional_double("peripheral_ns", params.peripheral_ns, 0.0, 1e9);
  params.array_area_mm2 =
      unit_reader.optional_double("array_area_mm2", params.array_area_mm2, 0.0, 1e3);
  params.clock_ghz = optional_clock_key(unit_reader);
  params.analog = parse_analog_params(unit_reader);
  if (params.adc.columns_per_adc > params.cols) {
    throw_bad_input(unit_reader.required("adc").where(),
                    "adc.columns_per_adc=" + std::to_string(params.adc.columns_per_adc) +
                        " exceeds the array's " + std::to_string(params.cols) + " columns");
  }
  return params;
}

}  // namespace polyarch::archs::crossbar
