#include "sim/energy/tech_table.h"

#include <algorithm>
#include <cmath>

namespace polyarch::sim {

namespace {

constexpr double kMaxEntry = 1e9;  // any energy, area or density far beyond a real table

const std::vector<std::string>& compute_dtypes() { return ir::dtype_names(); }

const std::vector<std::string>& dram_kinds() {
  static const std::vector<std::string> kKinds = {"ddr3", "ddr4",  "ddr5", "lpddr4", "lpddr5",
                                                  "hbm2", "hbm2e", "hbm3", "gddr6",  "ideal"};
  return kKinds;
}

// Keys of a map group whose children are all scalars (e.g. mult_pj: {int8: ..}).
void add_group(std::vector<std::string>& keys, const std::string& group,
               const std::vector<std::string>& names) {
  for (const std::string& name : names) keys.push_back(group + "." + name);
}

// The child keys of `prefix` among the scalar keys `keys` (one level down).
std::vector<std::string> child_names(const std::string& prefix,
                                     const std::vector<std::string>& keys) {
  std::vector<std::string> names;
  for (const std::string& key : keys) {
    if (key.rfind(prefix, 0) != 0) continue;
    std::string rest = key.substr(prefix.size());
    std::string head = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), head) == names.end()) names.push_back(head);
  }
  if (prefix == "sram.") names.push_back("pj_per_bit");
  return names;
}

bool is_scalar_key(const std::string& key, const std::vector<std::string>& keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::vector<SramEnergyPoint> parse_sram_curve(const ConfigNode& node) {
  if (!node.is_sequence() || node.items().empty()) {
    throw_bad_input(node.where(),
                    "expected a non-empty list of {kib, pj} points, got " + node.describe_type());
  }
  std::vector<SramEnergyPoint> curve;
  for (const ConfigNode& item : node.items()) {
    MapReader reader(item);
    SramEnergyPoint point;
    point.kib = reader.required_double("kib", 1e-6, kMaxEntry);
    point.pj_per_bit = reader.required_double("pj", 0.0, kMaxEntry);
    reader.finish();
    if (!curve.empty() && point.kib <= curve.back().kib) {
      throw_bad_input(item.where(), "SRAM points must have increasing kib");
    }
    curve.push_back(point);
  }
  return curve;
}

// Reads the map `node` at key path `prefix` ("" at the top) into `table`, accepting the scalar
// keys `keys` and the maps above them. `seen` collects the scalar keys read.
void read_map(const ConfigNode& node, const std::string& prefix,
              const std::vector<std::string>& keys, TechTable& table,
              std::vector<std::string>& seen) {
  if (!node.is_map()) {
    throw_bad_input(node.where(), "expected a map, got " + node.describe_type());
  }
  const std::vector<std::string> allowed = child_names(prefix, keys);
  for (const auto& [name, child] : node.entries()) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      std::string message = "unknown energy entry '" + prefix + name + "'";
      std::string suggestion = nearest_spelling(name, allowed);
      if (!suggestion.empty()) message += "; did you mean '" + prefix + suggestion + "'?";
      throw_bad_input(child.where(), message);
    }
    const std::string key = prefix + name;
    if (key == "sram.pj_per_bit") {
      table.sram_curve = parse_sram_curve(child);
    } else if (is_scalar_key(key, keys)) {
      table.entries[key] = child.as_double(0.0, kMaxEntry);
      seen.push_back(key);
    } else {
      read_map(child, key + ".", keys, table, seen);
    }
  }
}

double interpolate(double x, const SramEnergyPoint& a, const SramEnergyPoint& b) {
  const double xa = std::sqrt(a.kib);
  const double xb = std::sqrt(b.kib);
  return a.pj_per_bit + (b.pj_per_bit - a.pj_per_bit) * (std::sqrt(x) - xa) / (xb - xa);
}

}  // namespace

ir::DType priced_dtype(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kBool:
    case ir::DType::kUint8:
      return ir::DType::kInt8;
    case ir::DType::kInt64:
      return ir::DType::kInt32;
    case ir::DType::kFp64:
      return ir::DType::kFp32;
    default:
      return dtype;
  }
}

ir::DType accumulator_dtype(ir::DType dtype) {
  switch (priced_dtype(dtype)) {
    case ir::DType::kInt4:
    case ir::DType::kInt8:
    case ir::DType::kInt16:
    case ir::DType::kInt32:
      return ir::DType::kInt32;
    case ir::DType::kFp8E4M3:
    case ir::DType::kFp8E5M2:
      return ir::DType::kFp16;
    default:
      return ir::DType::kFp32;
  }
}

namespace {

// The keys every tech file defines whatever models price with it, in file order.
const std::vector<std::string>& own_keys() {
  static const std::vector<std::string> kKeys = [] {
    std::vector<std::string> keys;
    add_group(keys, "mult_pj", compute_dtypes());
    add_group(keys, "add_pj", compute_dtypes());
    keys.push_back("register_pj_per_bit");
    keys.push_back("clock.sink_ff_per_bit");
    keys.push_back("sram.reference_width_bits");
    keys.push_back("sram.area_mm2_per_kib");
    add_group(keys, "dram_pj_per_bit", dram_kinds());
    add_group(keys, "dram_background_mw_per_channel", dram_kinds());
    keys.push_back("wire_pj_per_bit_mm");
    keys.push_back("leakage_mw_per_mm2");
    keys.push_back("leakage_reference_c");
    keys.push_back("leakage_lstp_ratio");
    keys.push_back("leakage_vth_v");
    keys.push_back("leakage_subthreshold_n");
    keys.push_back("adc.fj_per_conversion_step");
    keys.push_back("adc.area_um2_per_step");
    keys.push_back("adc.comparator_ff");
    keys.push_back("dac.fj_per_step");
    keys.push_back("noc.router_pj_per_bit");
    add_group(keys, "area_um2.mult", compute_dtypes());
    add_group(keys, "area_um2.add", compute_dtypes());
    keys.push_back("area_um2.register_bit");
    return keys;
  }();
  return kKeys;
}

}  // namespace

std::vector<std::string> tech_table_keys(const std::vector<TechDeviceSection>& device_sections) {
  std::vector<std::string> keys = own_keys();
  for (const TechDeviceSection& section : device_sections) {
    for (const std::string& device : section.devices) {
      add_group(keys, section.name + "." + device, section.entries);
    }
  }
  return keys;
}

TechTable parse_tech_table(const ConfigNode& root,
                           const std::vector<TechDeviceSection>& device_sections) {
  MapReader reader(root);
  TechTable table;
  table.device_sections = device_sections;
  table.node = reader.required_string("node");
  table.vdd_v = reader.required_double("vdd_v", 0.05, 10.0);
  ConfigNode body = root;
  body.erase("node");
  body.erase("vdd_v");
  for (const auto& [name, child] : root.entries()) reader.ignore(name);
  reader.finish();
  std::vector<std::string> seen;
  const std::vector<std::string> keys = tech_table_keys(device_sections);
  read_map(body, "", keys, table, seen);
  for (const std::string& key : keys) {
    if (std::find(seen.begin(), seen.end(), key) == seen.end()) {
      throw_bad_input(root.where(), "tech table '" + table.node + "' lacks entry '" + key + "'");
    }
  }
  if (table.sram_curve.size() < 2) {
    const ConfigNode* sram = root.find("sram");
    throw_bad_input(sram ? sram->where() : root.where(),
                    "tech table '" + table.node + "' needs at least two sram.pj_per_bit points");
  }
  if (table.entries.at("sram.reference_width_bits") < 1.0) {
    throw_bad_input(root.where(), "sram.reference_width_bits must be at least 1");
  }
  return table;
}

void apply_tech_overrides(TechTable& table, const ConfigNode& overrides) {
  std::vector<std::string> seen;
  TechTable updated = table;
  read_map(overrides, "", tech_table_keys(table.device_sections), updated, seen);
  if (updated.sram_curve.size() < 2) {
    throw_bad_input(overrides.where(), "energy.sram.pj_per_bit needs at least two points");
  }
  table = std::move(updated);
}

double TechTable::entry(const std::string& key) const {
  auto found = entries.find(key);
  if (found == entries.end()) {
    throw_runtime({}, "tech table '" + node + "' has no entry '" + key + "'");
  }
  return found->second;
}

double TechTable::leakage_temperature_factor(double celsius) const {
  constexpr double kKelvinAtZeroCelsius = 273.15;
  constexpr double kElectronChargeOverBoltzmann = 11604.518;  // q / k in K/V
  const double reference_k = entry("leakage_reference_c") + kKelvinAtZeroCelsius;
  const double kelvin = celsius + kKelvinAtZeroCelsius;
  if (!(kelvin > 0.0)) return 0.0;
  const double slope_k =
      kElectronChargeOverBoltzmann * entry("leakage_vth_v") / entry("leakage_subthreshold_n");
  const double ratio = kelvin / reference_k;
  return ratio * ratio * std::exp(slope_k * (1.0 / reference_k - 1.0 / kelvin));
}

double TechTable::adc_pj_per_conversion(int64_t bits) const {
  return entry("adc.fj_per_conversion_step") * std::ldexp(1.0, static_cast<int>(bits)) * 1e-3;
}

double TechTable::adc_comparator_pj() const {
  return entry("adc.comparator_ff") * vdd_v * vdd_v * kPjPerFj;
}

double TechTable::adc_area_mm2(int64_t bits) const {
  return entry("adc.area_um2_per_step") * std::ldexp(1.0, static_cast<int>(bits)) * 1e-6;
}

double TechTable::dac_pj_per_drive(int64_t bits) const {
  return entry("dac.fj_per_step") * (std::ldexp(1.0, static_cast<int>(bits)) - 1.0) * 1e-3;
}

double TechTable::device_entry(const std::string& section, const std::string& device,
                               const std::string& entry_name) const {
  const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  for (const TechDeviceSection& declared : device_sections) {
    if (declared.name != section) continue;
    if (!listed(declared.devices, device) || !listed(declared.entries, entry_name)) break;
    return entry(section + "." + device + "." + entry_name);
  }
  throw_runtime({}, "tech table '" + node + "' has no entry '" + entry_name + "' for device '" +
                        device + "' in section '" + section + "'");
}

double TechTable::fma_pj(ir::DType dtype) const {
  return mult_pj(priced_dtype(dtype)) + add_pj(priced_dtype(dtype));
}

double TechTable::mult_pj(ir::DType dtype) const {
  return entry("mult_pj." + std::string(ir::dtype_name(dtype)));
}

double TechTable::convert_pj(ir::DType wide) const { return add_pj(priced_dtype(wide)); }

double TechTable::add_pj(ir::DType dtype) const {
  return entry("add_pj." + std::string(ir::dtype_name(dtype)));
}

double TechTable::mult_area_um2(ir::DType dtype) const {
  return entry("area_um2.mult." + std::string(ir::dtype_name(dtype)));
}

double TechTable::add_area_um2(ir::DType dtype) const {
  return entry("area_um2.add." + std::string(ir::dtype_name(dtype)));
}

double TechTable::sram_access_pj_per_bit(double kib, int64_t width_bits) const {
  if (sram_curve.size() < 2) throw_runtime({}, "tech table '" + node + "' has no SRAM curve");
  std::size_t upper = 1;
  while (upper + 1 < sram_curve.size() && kib > sram_curve[upper].kib) ++upper;
  double per_bit = std::max(0.0, interpolate(kib, sram_curve[upper - 1], sram_curve[upper]));
  const double reference_width = entry("sram.reference_width_bits");
  if (width_bits > 0 && static_cast<double>(width_bits) < reference_width) {
    per_bit *= reference_width / static_cast<double>(width_bits);
  }
  return per_bit;
}

namespace {

// The entry `group`.<kind> for a DRAM kind; a timing preset such as "ddr4_3200" is priced as its
// DRAM type, "ddr4".
double dram_entry(const TechTable& table, const std::string& group, const std::string& dram_kind,
                  const std::string& what) {
  const std::string type = dram_kind.substr(0, dram_kind.find('_'));
  auto found = table.entries.find(group + "." + dram_kind);
  if (found == table.entries.end()) found = table.entries.find(group + "." + type);
  if (found == table.entries.end()) {
    throw_runtime({}, "tech table '" + table.node + "' has no DRAM " + what + " for '" +
                          dram_kind + "'");
  }
  return found->second;
}

}  // namespace

double TechTable::dram_pj_per_bit(const std::string& dram_kind) const {
  return dram_entry(*this, "dram_pj_per_bit", dram_kind, "energy");
}

double TechTable::dram_background_w_per_channel(const std::string& dram_kind) const {
  return dram_entry(*this, "dram_background_mw_per_channel", dram_kind, "background power") *
         1e-3;
}

}  // namespace polyarch::sim
