#include "archs/soc/soc_config.h"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <set>

#include "archs/registry.h"
#include "archs/soc/soc_keys.h"
#include "sim/memory/dram/presets.h"
#include "sim/memory/dram/streaming_efficiency.h"
#include "sim/memory/jedec_dram_spec.h"
#include "sim/thermal/package_config.h"

namespace polyarch::archs {

namespace {

sim::DramSpec parse_dram(const ConfigNode& node) {
  if (sim::is_jedec_dram_map(node)) return sim::read_jedec_dram_spec(node);
  const KeyTable& keys = memory_keys();
  MapReader reader(node);
  sim::DramSpec dram;
  if (reader.has("model") && read_choice(reader, keys.at("dram.model")) == "jedec") {
    throw_bad_input(reader.required("model").where(),
                    "model: jedec needs a JEDEC description of the DRAM: a standard or a preset "
                    "(docs/dram.md), not bandwidth_gbps and latency_ns");
  }
  dram.kind = read_choice(reader, keys.at("dram.kind"));
  dram.bandwidth_gbps = read_number(reader, keys.at("dram.bandwidth_gbps"));
  dram.latency_ns = read_number(reader, keys.at("dram.latency_ns"));
  dram.channels = static_cast<int>(read_int(reader, keys.at("dram.channels")));
  dram.capacity_gib = read_number(reader, keys.at("dram.capacity_gib"));
  const ConfigNode* capacity = node.find("capacity_gib");
  dram.capacity_where = capacity != nullptr ? capacity->where() : node.where();
  if (reader.has("timing")) {
    dram.timing_preset = read_choice(reader, keys.at("dram.timing"));
    dram.efficiency = sim::dram::preset_streaming_efficiency(dram.timing_preset);
  }
  finish_with_table(reader, keys, "dram");
  return dram;
}

sim::DramSpec parse_memory(const ConfigNode& node) {
  MapReader reader(node);
  sim::DramSpec dram = parse_dram(reader.required("dram"));
  finish_with_table(reader, memory_keys(), "");
  return dram;
}

sim::InterconnectSpec parse_interconnect(const ConfigNode& node) {
  const KeyTable& keys = soc_keys();
  MapReader reader(node);
  sim::InterconnectSpec interconnect;
  interconnect.kind = read_choice(reader, keys.at("interconnect.kind"));
  interconnect.bandwidth_gbps = read_number(reader, keys.at("interconnect.bandwidth_gbps"));
  interconnect.latency_cycles =
      static_cast<int>(read_int(reader, keys.at("interconnect.latency_cycles")));
  interconnect.transfers = read_choice(reader, keys.at("interconnect.transfers"));
  finish_with_table(reader, keys, "interconnect");
  return interconnect;
}

double parse_board_regulator_efficiency(const ConfigNode& node) {
  const KeyTable& keys = soc_keys();
  MapReader reader(node);
  const double efficiency = read_number(reader, keys.at("board.regulator_efficiency"));
  finish_with_table(reader, keys, "board");
  return efficiency;
}

std::unique_ptr<UnitConfig> parse_unit(const ConfigNode& node) {
  MapReader reader(node);
  std::string name = reader.required_string("name");
  if (name.empty()) throw_bad_input(reader.required("name").where(), "unit name is empty");
  std::string kind = reader.required_enum("kind", unit_kind_names());
  const UnitKindEntry& entry = *find_unit_kind(kind);
  std::unique_ptr<UnitConfig> unit = entry.parse(reader, name);
  finish_unit_keys(reader, entry);
  return unit;
}

std::vector<std::unique_ptr<UnitConfig>> parse_units(const ConfigNode& node) {
  if (!node.is_sequence()) {
    throw_bad_input(node.where(), "expected a list of units, got " + node.describe_type());
  }
  if (node.items().empty()) throw_bad_input(node.where(), "an SoC needs at least one unit");
  std::vector<std::unique_ptr<UnitConfig>> units;
  std::set<std::string> names;
  for (const ConfigNode& item : node.items()) {
    units.push_back(parse_unit(item));
    if (!names.insert(units.back()->name()).second) {
      throw_bad_input(item.where(), "duplicate unit name '" + units.back()->name() + "'");
    }
  }
  return units;
}

std::string parse_technology(MapReader& reader) {
  const ConfigNode* node = reader.optional("technology");
  if (node == nullptr) return soc_keys().at("technology").default_value;
  const std::string& text = node->scalar();
  static const std::regex kNode("[1-9][0-9]*nm");
  if (!std::regex_match(text, kNode)) {
    throw_bad_input(node->where(), "expected a technology node like '28nm', got '" + text + "'");
  }
  return text;
}

// The power cap (the multi-unit scheduler plans under it) and copied transfers (results crossing
// units) act between units: an SoC of one unit runs its ops one after another on it, which
// neither changes, so they are refused there rather than accepted and left unused.
void reject_keys_between_units(const ConfigNode& root, const SocConfig& soc) {
  if (soc.units.size() != 1) return;
  if (const ConfigNode* cap = root.find("power_cap_w")) {
    throw_bad_input(cap->where(),
                    "power_cap_w: the cap is planned by the multi-unit scheduler; an SoC of one "
                    "unit runs its ops one after another, which no cap changes");
  }
  if (soc.interconnect.transfers == "copy") {
    throw_bad_input(root.find("interconnect")->find("transfers")->where(),
                    "interconnect.transfers: copy prices results crossing units; an SoC of one "
                    "unit has none");
  }
}

// The units' modelled area (mm^2): what the die area must exceed to change anything.
double modelled_area_mm2(const SocConfig& soc) {
  double area = 0.0;
  for (const auto& unit : soc.units) area += unit->area_mm2(soc.tech.table).value_or(0.0);
  return area;
}

// A die no larger than the units' modelled area leaves no uncore to price: refused, since the
// key would change nothing (or the figure is not the whole die's).
void check_die_area(const ConfigNode& root, const SocConfig& soc) {
  if (!soc.die_area_mm2) return;
  const double modelled = modelled_area_mm2(soc);
  if (*soc.die_area_mm2 > modelled) return;
  char text[160];
  std::snprintf(text, sizeof text,
                "die_area_mm2: %.4g mm^2 is not larger than the %.4g mm^2 the units' models "
                "price; give the whole die's area",
                *soc.die_area_mm2, modelled);
  throw_bad_input(root.find("die_area_mm2")->where(), text);
}

// Keys of the thermal parser (shared with `polyarch thermal`, whose --model and --grid may
// override the file's model) that a run would leave unused, refused at values other than their
// defaults: the sampling interval (a run samples its temperatures at its power windows,
// `--power-window-us`) and the grid's size beside the block model (one node per block).
void reject_unused_thermal_keys(const ConfigNode& node,
                                const sim::thermal::PackageConfig& package) {
  const sim::thermal::PackageConfig defaults;
  if (const ConfigNode* interval = node.find("sampling_interval_s");
      interval != nullptr && package.sampling_interval_s != defaults.sampling_interval_s) {
    throw_bad_input(interval->where(),
                    "thermal.sampling_interval_s: a run samples at its power window "
                    "(--power-window-us); the key is for `polyarch thermal` files");
  }
  if (package.model.kind != sim::thermal::ThermalModelKind::kBlock ||
      (package.model.grid_rows == defaults.model.grid_rows &&
       package.model.grid_cols == defaults.model.grid_cols)) {
    return;
  }
  for (const char* key : {"grid_rows", "grid_cols"}) {
    if (const ConfigNode* grid = node.find(key)) {
      throw_bad_input(grid->where(), "thermal." + std::string(key) +
                                         " sizes the grid model; model: block (the default) has "
                                         "one node per block");
    }
  }
}

}  // namespace

SocConfig parse_soc_config(const ConfigNode& root) {
  MapReader reader(root);
  SocConfig soc;
  const KeyTable& keys = soc_keys();
  soc.name = read_string(reader, keys.at("name"));
  soc.clock_ghz = read_number(reader, keys.at("clock_ghz"));
  soc.technology = parse_technology(reader);
  soc.dram = parse_memory(reader.required("memory"));
  if (const ConfigNode* node = reader.optional("interconnect")) {
    soc.interconnect = parse_interconnect(*node);
  }
  soc.units = parse_units(reader.required("units"));
  for (auto& unit : soc.units) unit->use_soc_memory(soc.dram, soc.memory_context());
  soc.tech = resolve_tech(soc.technology);
  if (const ConfigNode* node = reader.optional("energy")) {
    sim::apply_tech_overrides(soc.tech.table, *node);
  }
  // After the overrides: the density and the ratio are the table's as the arch left them.
  soc.devices = read_choice(reader, keys.at("devices"));
  if (soc.devices == "lstp") {
    soc.tech.table.entries["leakage_mw_per_mm2"] *= soc.tech.table.entry("leakage_lstp_ratio");
  }
  // Mapping search prices energy with the same table the run's energy accounting uses.
  const auto table = std::make_shared<const sim::TechTable>(soc.tech.table);
  for (auto& unit : soc.units) unit->use_mapping_energy({table, soc.dram.kind});
  if (const ConfigNode* node = reader.optional("thermal")) {
    soc.thermal = sim::thermal::parse_package_config(*node);
    reject_unused_thermal_keys(*node, *soc.thermal);
  }
  if (const ConfigNode* node = reader.optional("dvfs")) soc.dvfs = sim::parse_dvfs_policy(*node);
  soc.power_cap_w = read_optional_number(reader, keys.at("power_cap_w"));
  soc.die_area_mm2 = read_optional_number(reader, keys.at("die_area_mm2"));
  check_die_area(root, soc);
  if (const ConfigNode* node = reader.optional("board")) {
    soc.board_regulator_efficiency = parse_board_regulator_efficiency(*node);
  }
  finish_with_table(reader, keys, "");
  reject_keys_between_units(root, soc);
  return soc;
}

SocConfig load_soc_config(const std::filesystem::path& path) {
  return parse_soc_config(load_config_with_base(path));
}

bool looks_like_arch(const ConfigNode& root) { return root.find("units") != nullptr; }

sim::SystemSpec SocConfig::system_spec() const {
  sim::SystemSpec spec;
  spec.name = name;
  spec.clock_ghz = clock_ghz;
  spec.dram = dram;
  spec.interconnect = interconnect;
  for (const auto& unit : units) {
    // The unit config outlives the spec: simulations run while their SoC config is alive.
    const UnitConfig* config = unit.get();
    spec.units.push_back({unit->name(), unit->kind(), unit->factory(clock_ghz),
                          [config](const ir::Op& op) { return config->run_dtype(op); }});
  }
  return spec;
}

MemoryContext SocConfig::memory_context() const {
  MemoryContext memory;
  double gbps = dram.sustained_bandwidth_gbps();
  if (interconnect.bandwidth_gbps > 0) {
    gbps = gbps > 0 ? std::min(gbps, interconnect.bandwidth_gbps) : interconnect.bandwidth_gbps;
  }
  memory.dram_bytes_per_second = gbps * 1e9;
  memory.dram_latency_s =
      dram.latency_ns * 1e-9 + static_cast<double>(interconnect.latency_cycles) / (clock_ghz * 1e9);
  return memory;
}

sim::ChipPhysics SocConfig::physics() const {
  sim::ChipPhysics chip;
  chip.tech = &tech;
  chip.dram_kind = dram.kind;
  chip.dram_channels = dram.channels;
  chip.die_area_mm2 = die_area_mm2;
  chip.board_regulator_efficiency = board_regulator_efficiency;
  chip.thermal = thermal;
  chip.dvfs = dvfs;
  for (const auto& unit : units) chip.units.push_back(unit.get());
  return chip;
}

nlohmann::ordered_json SocConfig::describe() const {
  nlohmann::ordered_json json;
  json["name"] = name;
  json["clock_ghz"] = clock_ghz;
  json["technology"] = technology;
  json["energy_table"] = tech.table.node;
  json["memory"]["dram"] = {{"kind", dram.kind},
                            {"bandwidth_gbps", dram.bandwidth_gbps},
                            {"latency_ns", dram.latency_ns},
                            {"channels", dram.channels},
                            {"capacity_gib", dram.capacity_gib},
                            {"timing", dram.timing_preset.empty()
                                           ? nlohmann::ordered_json(nullptr)
                                           : nlohmann::ordered_json(dram.timing_preset)},
                            {"sustained_bandwidth_gbps", dram.sustained_bandwidth_gbps()}};
  // Simple files keep the description they always had; a JEDEC one says which backend ran.
  if (dram.jedec_config) json["memory"]["dram"]["model"] = dram.model;
  json["interconnect"] = {{"kind", interconnect.kind},
                          {"bandwidth_gbps", interconnect.bandwidth_gbps},
                          {"latency_cycles", interconnect.latency_cycles},
                          {"transfers", interconnect.transfers}};
  if (power_cap_w) json["power_cap_w"] = *power_cap_w;
  if (die_area_mm2) json["die_area_mm2"] = *die_area_mm2;
  if (board_regulator_efficiency) {
    json["board"] = {{"regulator_efficiency", *board_regulator_efficiency}};
  }
  json["units"] = nlohmann::ordered_json::array();
  for (const auto& unit : units) json["units"].push_back(unit->describe());
  return json;
}

void SocConfig::use_mapping_search(const std::shared_ptr<const mapping::SearchPolicy>& policy) {
  if (!policy) return;
  for (auto& unit : units) unit->use_mapping_search(policy);
}

}  // namespace polyarch::archs
