#include "archs/crossbar/params.h"

#include <algorithm>
#include <cmath>

#include "archs/common_keys.h"
#include "archs/crossbar/cell_tech.h"
#include "archs/crossbar/line_energy.h"
#include "base/checked_math.h"
#include "base/key_specs.h"

namespace polyarch::archs::crossbar {

int64_t CrossbarParams::cells_per_weight() const {
  return ceil_div(weight_bits, cell.bits_per_cell) * (differential ? 2 : 1);
}

int64_t CrossbarParams::column_groups_per_array() const {
  return ceil_div(cols, adc.columns_per_adc);
}

int64_t CrossbarParams::adcs_per_tile() const {
  return adc.per_tile.value_or(arrays_per_tile * column_groups_per_array());
}

int64_t CrossbarParams::input_slices(bool is_signed) const {
  return is_signed ? 2 * ceil_div(input_bits - 1, dac_bits) : ceil_div(input_bits, dac_bits);
}

double CrossbarParams::worst_column_sum() const {
  const double level_max = std::ldexp(1.0, static_cast<int>(cell.bits_per_cell)) - 1;
  const double dac_max = std::ldexp(1.0, static_cast<int>(dac_bits)) - 1;
  return static_cast<double>(rows) * level_max / (flip_columns ? 2.0 : 1.0) * dac_max;
}

double ActivationPath::transfer_ns(double bits, double lanes) const {
  if (!timed() || bits <= 0) return 0.0;
  return bits / (static_cast<double>(width_bits) * lanes * clock_ghz) + latency_ns;
}

double CrossbarParams::slice_ns() const {
  const double conversion_ns = static_cast<double>(adc.columns_per_adc) / adc.sample_rate_gsps;
  return std::max(read_ns, conversion_ns);
}

namespace {

constexpr int64_t kMaxCount = int64_t{1} << 24;
constexpr double kMaxEnergy = 1e6;

AdcParams parse_adc(KeyReader& unit) {
  AdcParams adc;
  KeyReader reader = unit.nested("adc");
  adc.type = reader.read_choice("type") == "flash" ? AdcType::kFlash : AdcType::kSar;
  adc.bits = reader.read_int("bits");
  adc.columns_per_adc = reader.read_int("columns_per_adc");
  adc.per_tile = reader.read_optional_int("per_tile");
  adc.sample_rate_gsps = reader.read_number("sample_rate_gsps");
  adc.energy_pj = reader.read_optional_number("energy_pj");
  adc.reference_power_uw = reader.read_number("reference_power_uw");
  adc.area_mm2 = reader.read_number("area_mm2");
  adc.full_scale_fraction = reader.read_number("full_scale_fraction");
  adc.calibrated_range = reader.read_choice("range") == "calibrated";
  // A calibrated range is the op's largest sum: the fraction of the worst case would change
  // nothing.
  if (const ConfigNode* node = reader.map_reader().node().find("full_scale_fraction");
      node != nullptr && adc.calibrated_range &&
      adc.full_scale_fraction != AdcParams{}.full_scale_fraction) {
    throw_bad_input(node->where(),
                    "adc.full_scale_fraction scales the worst-case range; range: calibrated sets "
                    "the range from the op's own sums");
  }
  reader.finish();
  return adc;
}

// `buffer:` or `bus:`; a width needs the path's clock (there is no rate without it).
ActivationPath parse_path(KeyReader& unit, const std::string& name) {
  ActivationPath path;
  KeyReader reader = unit.nested_or_defaults(name);
  path.width_bits = reader.read_int("width_bits");
  const std::optional<double> clock = reader.read_optional_number("clock_ghz");
  path.latency_ns = reader.read_number("latency_ns");
  if (path.timed()) {
    if (!clock) {
      throw_bad_input(reader.map_reader().node().where(),
                      name + ".width_bits needs " + name + ".clock_ghz, the path's clock");
    }
    path.clock_ghz = *clock;
  } else {
    // An untimed path: a clock or a latency would change nothing (a default written out, as a
    // report's `arch` echoes it, says what holds anyway).
    const ConfigNode& map = reader.map_reader().node();
    const ConfigNode* inert = map.find("clock_ghz");
    std::string key = "clock_ghz";
    if (inert == nullptr && path.latency_ns != 0.0) {
      inert = map.find("latency_ns");
      key = "latency_ns";
    }
    if (inert != nullptr) {
      throw_bad_input(inert->where(), name + "." + key + " times a path of width_bits 0 (untimed)");
    }
  }
  reader.finish();
  return path;
}

CellParams parse_cell(KeyReader& unit) {
  CellParams cell;
  KeyReader reader = unit.nested("cell");
  cell.device = reader.read_choice("device");
  cell.bits_per_cell = reader.read_int("bits_per_cell");
  cell.read_energy_fj = reader.read_optional_number("read_energy_fj");
  cell.write_energy_pj = reader.read_optional_number("write_energy_pj");
  cell.write_ns_per_row = reader.read_number("write_ns_per_row");
  cell.endurance_cycles = reader.read_number("endurance_cycles");
  reader.finish();
  return cell;
}

// An energy per event the technology table prices where the arch gives none.
KeySpec event_energy_key(std::string path, std::string unit, std::string doc) {
  return number_key(std::move(path), std::move(unit), "tech table", 0.0, kMaxEnergy,
                    std::move(doc));
}

// Keys that act only beside others, refused at a value other than their default where the others
// leave them nothing to change (each would otherwise be accepted and change no result; a default
// written out, as a report's `arch` echoes it, says what holds anyway).
void reject_inert_keys(const ConfigNode& unit, const CrossbarParams& params) {
  const CrossbarParams defaults;
  const ConfigNode* cell = unit.find("cell");
  if (const ConfigNode* device = cell->find("device");
      device != nullptr && params.cell.device != defaults.cell.device &&
      params.cell.read_energy_fj && params.cell.write_energy_pj) {
    throw_bad_input(device->where(),
                    "cell.device prices a cell's reads and writes from the technology table; "
                    "read_energy_fj and write_energy_pj both given leave it nothing to price");
  }
  // An ADC with bits for every level of a column's worst-case sum converts each sum exactly
  // whatever its range: neither a smaller full scale nor calibration changes it.
  const double column_levels = params.worst_column_sum();
  const bool exact_adc = std::ceil(std::log2(column_levels + 1)) <= params.adc.bits;
  const ConfigNode* adc = unit.find("adc");
  const bool adc_default = params.adc.full_scale_fraction == defaults.adc.full_scale_fraction &&
                           params.adc.calibrated_range == defaults.adc.calibrated_range;
  for (const char* key : {"full_scale_fraction", "range"}) {
    if (const ConfigNode* node = adc->find(key); node != nullptr && exact_adc && !adc_default) {
      throw_bad_input(node->where(), "adc." + std::string(key) + ": the " +
                                         std::to_string(params.adc.bits) +
                                         "-bit ADC resolves all " + default_text(column_levels) +
                                         " levels of a column's sum, so its range changes "
                                         "nothing");
    }
  }
  // Only a flash converter has a reference drawing static power; a given energy per conversion
  // already includes it.
  if (const ConfigNode* node = adc->find("reference_power_uw");
      node != nullptr && params.adc.reference_power_uw != defaults.adc.reference_power_uw &&
      (params.adc.type != AdcType::kFlash || params.adc.energy_pj)) {
    throw_bad_input(node->where(),
                    "adc.reference_power_uw prices a flash converter's reference ladder; it needs "
                    "adc.type: flash and no adc.energy_pj");
  }
  // A given energy per conversion leaves the type nothing to price.
  if (const ConfigNode* node = adc->find("type");
      node != nullptr && params.adc.type != defaults.adc.type && params.adc.energy_pj) {
    throw_bad_input(node->where(),
                    "adc.type prices a conversion from the technology table; adc.energy_pj "
                    "given leaves it nothing to price");
  }
  // Pulse-coded drives change only the word lines' energy, which only SRAM-CIM arrays price.
  if (const ConfigNode* node = unit.find("dac_pulses"); node != nullptr && params.dac_pulses) {
    if (!prices_lines(params.cell.device)) {
      throw_bad_input(node->where(), "dac_pulses prices an SRAM-CIM array's word-line pulses; a " +
                                         params.cell.device + " array's rows are priced by "
                                         "dac_energy_pj");
    }
    // A 1-bit digit is one pulse or one full level alike: on random digits half a charge.
    if (params.dac_bits == 1) {
      throw_bad_input(node->where(), "dac_pulses: a 1-bit digit is one pulse, the same drive as "
                                     "one level; it needs dac_bits above 1");
    }
  }
  const ConfigNode* analog = unit.find("analog");
  if (const ConfigNode* node = analog != nullptr ? analog->find("cell_on_resistance_ohm") : nullptr;
      node != nullptr && params.analog.wire_resistance_ohm == 0.0 &&
      params.analog.cell_on_resistance_ohm != defaults.analog.cell_on_resistance_ohm) {
    throw_bad_input(node->where(),
                    "analog.cell_on_resistance_ohm sets the wires' IR drop against the cells; "
                    "wire_resistance_ohm: 0 (ideal wires, the default) has none");
  }
}

}  // namespace

const KeyTable& crossbar_keys() {
  static const KeyTable table = [] {
    const CrossbarParams params;
    const CellParams& cell = params.cell;
    const AdcParams& adc = params.adc;
    std::vector<KeySpec> keys = {
        int_key("tiles", "", kRequired, 1, kMaxCount, "tiles of arrays"),
        int_key("arrays_per_tile", "", kRequired, 1, kMaxCount, "crossbar arrays per tile"),
        int_key("rows", "cells", kRequired, 1, 1 << 16, "rows of one array (inputs)"),
        int_key("cols", "cells", kRequired, 1, 1 << 16, "columns of one array (outputs)"),
        map_key("cell", kRequired, "the memory cell at each crossing"),
        choice_key("cell.device", cell.device, cell_devices(),
                   "device, priced by the technology table's crossbar_cell entries"),
        int_key("cell.bits_per_cell", "bits", kRequired, 1, 8, "weight bits one cell holds"),
        event_energy_key("cell.read_energy_fj", "fJ", "per cell per read (one input bit-slice)"),
        event_energy_key("cell.write_energy_pj", "pJ", "per cell programmed"),
        number_key("cell.write_ns_per_row", "ns", default_text(cell.write_ns_per_row), 0.0, 1e9,
                   "programming one row (rows of an array one at a time)"),
        number_key("cell.endurance_cycles", "", default_text(cell.endurance_cycles), 1.0, 1e20,
                   "writes a cell survives"),
        int_key("weight_bits", "bits", default_text(params.weight_bits), 1, 64,
                "weight resolution, sliced over cells"),
        int_key("input_bits", "bits", default_text(params.input_bits), 1, 64,
                "input resolution, streamed in slices of dac_bits"),
        int_key("dac_bits", "bits", default_text(params.dac_bits), 1, 64, "bits per input slice"),
        number_key("dac_energy_pj", "pJ", default_text(params.dac_energy_pj), 0.0, 1e6,
                   "per row drive per input slice"),
        choice_key("signed_weights", "offset", {"offset", "differential"},
                   "signed weights by an offset column set or as column pairs"),
        bool_key("flip_columns", params.flip_columns,
                 "a column whose levels sum above half the array's range stores their "
                 "complements: column sums need one ADC bit fewer (ISAAC)"),
        map_key("adc", kRequired, "the column ADCs"),
        choice_key("adc.type", "sar", {"sar", "flash"},
                   "sar: the technology table's Walden rule per conversion; flash (or a "
                   "multi-level sense amplifier): 2^bits - 1 comparators per conversion plus "
                   "reference_power_uw over the conversion period"),
        number_key("adc.reference_power_uw", "uW", default_text(adc.reference_power_uw), 0.0, 1e9,
                   "a flash converter's reference ladder (or dummy columns), static while it "
                   "converts"),
        bool_key("dac_pulses", params.dac_pulses,
                 "an input digit is that many word-line pulses (the line charged per pulse), "
                 "not one level"),
        int_key("adc.bits", "bits", kRequired, 1, 32, "resolution"),
        int_key("adc.columns_per_adc", "", kRequired, 1, kMaxCount,
                "columns sharing one ADC (at most cols)"),
        int_key("adc.per_tile", "", "one per column group", 1, kMaxCount,
                "ADCs of a tile, shared by its arrays' column groups"),
        number_key("adc.sample_rate_gsps", "GS/s", kRequired, 1e-6, 1e3, "conversion rate"),
        event_energy_key("adc.energy_pj", "pJ", "per conversion (table: Walden FoM x 2^bits)"),
        number_key("adc.area_mm2", "mm^2", default_text(adc.area_mm2), 0.0, 1e3, "one ADC"),
        number_key("adc.full_scale_fraction", "", default_text(adc.full_scale_fraction), 1e-6, 1.0,
                   "input range over the largest column sum; larger sums clip"),
        choice_key("adc.range", "worst_case", {"worst_case", "calibrated"},
                   "ADC range: the design's largest column sum (times full_scale_fraction), or "
                   "per slice pair the largest sum the op's reads produce"),
        number_key("read_ns", "ns", kRequired, 1e-6, 1e9, "one array read of one input slice"),
        number_key("shift_add_energy_pj", "pJ", default_text(params.shift_add_energy_pj), 0.0, 1e6,
                   "per ADC result combined"),
        number_key("peripheral_ns", "ns", default_text(params.peripheral_ns), 0.0, 1e9,
                   "shift-and-add and output register, per MVM"),
        number_key("array_area_mm2", "mm^2", default_text(params.array_area_mm2), 0.0, 1e3,
                   "one array with its drivers"),
        clock_key(),
        map_key("buffer", "untimed",
                "each tile's input and output activation buffers (one port each per tile)"),
        int_key("buffer.width_bits", "bits", "0", 0, kMaxCount,
                "bits one tile's buffer port moves per cycle (0: not timed)"),
        number_key("buffer.clock_ghz", "GHz", "required with width_bits", 1e-6, 1e3,
                   "the buffers' clock"),
        number_key("buffer.latency_ns", "ns", "0", 0.0, 1e9,
                   "per transfer (a wave's inputs or outputs)"),
        map_key("bus", "untimed", "the bus all tiles share, carrying activations to and from them"),
        int_key("bus.width_bits", "bits", "0", 0, kMaxCount,
                "bits the bus moves per cycle (0: not timed)"),
        number_key("bus.clock_ghz", "GHz", "required with width_bits", 1e-6, 1e3, "the bus clock"),
        number_key("bus.latency_ns", "ns", "0", 0.0, 1e9,
                   "per transfer (a wave's inputs or outputs)"),
        list_key("periphery", "none",
                 "parts the array models do not price: [{name, count, area_mm2, power_mw}] "
                 "(area added to the unit's, power drawn while it runs)")};
    for (KeySpec& spec : analog_keys()) keys.push_back(std::move(spec));
    return unit_key_table("crossbar", "analog in-memory MVM on tiles of R x C crossbar arrays",
                          std::move(keys));
  }();
  return table;
}

namespace {

// `periphery:`, a list of {name, count, area_mm2, power_mw}; every entry's keys checked.
std::vector<PeripheryComponent> parse_periphery(KeyReader& unit) {
  std::vector<PeripheryComponent> periphery;
  const ConfigNode* list = unit.map_reader().optional("periphery");
  if (list == nullptr) return periphery;
  if (!list->is_sequence()) {
    throw_bad_input(list->where(), "periphery must be a list of {name, count, area_mm2, power_mw}");
  }
  for (const ConfigNode& item : list->items()) {
    MapReader reader(item);
    PeripheryComponent component;
    component.name = reader.required_string("name");
    component.count = reader.required_int("count", 1, kMaxCount);
    component.area_mm2 = reader.required_double("area_mm2", 0.0, 1e4);
    component.power_mw = reader.required_double("power_mw", 0.0, 1e9);
    reader.finish();
    periphery.push_back(std::move(component));
  }
  return periphery;
}

nlohmann::ordered_json periphery_json(const std::vector<PeripheryComponent>& periphery) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const PeripheryComponent& component : periphery) {
    list.push_back({{"name", component.name},
                    {"count", component.count},
                    {"area_mm2", component.area_mm2},
                    {"power_mw", component.power_mw}});
  }
  return list;
}

}  // namespace

double CrossbarParams::periphery_area_mm2() const {
  double area = 0.0;
  for (const PeripheryComponent& component : periphery) {
    area += static_cast<double>(component.count) * component.area_mm2;
  }
  return area;
}

double CrossbarParams::periphery_power_w() const {
  double milliwatts = 0.0;
  for (const PeripheryComponent& component : periphery) {
    milliwatts += static_cast<double>(component.count) * component.power_mw;
  }
  return milliwatts * 1e-3;
}

CrossbarParams parse_crossbar_params(KeyReader& unit, const std::string& unit_name) {
  CrossbarParams params;
  params.name = unit_name;
  params.tiles = unit.read_int("tiles");
  params.arrays_per_tile = unit.read_int("arrays_per_tile");
  params.rows = unit.read_int("rows");
  params.cols = unit.read_int("cols");
  params.cell = parse_cell(unit);
  params.weight_bits = unit.read_int("weight_bits");
  params.input_bits = unit.read_int("input_bits");
  params.dac_bits = unit.read_int("dac_bits");
  params.dac_energy_pj = unit.read_number("dac_energy_pj");
  params.dac_pulses = unit.read_bool("dac_pulses");
  params.differential = unit.read_choice("signed_weights") == "differential";
  params.flip_columns = unit.read_bool("flip_columns");
  params.adc = parse_adc(unit);
  params.read_ns = unit.read_number("read_ns");
  params.shift_add_energy_pj = unit.read_number("shift_add_energy_pj");
  params.peripheral_ns = unit.read_number("peripheral_ns");
  params.array_area_mm2 = unit.read_number("array_area_mm2");
  params.clock_ghz = unit.read_optional_number("clock_ghz");
  params.analog = parse_analog_params(unit);
  params.periphery = parse_periphery(unit);
  params.buffer = parse_path(unit, "buffer");
  params.bus = parse_path(unit, "bus");
  unit.note("periphery", periphery_json(params.periphery));
  if (params.adc.columns_per_adc > params.cols) {
    throw_bad_input(unit.map_reader().required("adc").where(),
                    "adc.columns_per_adc=" + std::to_string(params.adc.columns_per_adc) +
                        " exceeds the array's " + std::to_string(params.cols) + " columns");
  }
  reject_inert_keys(unit.map_reader().node(), params);
  return params;
}

}  // namespace polyarch::archs::crossbar
