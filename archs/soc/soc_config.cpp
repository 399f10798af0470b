#include "archs/soc/soc_config.h"

#include <algorithm>
#include <regex>
#include <set>

#include "archs/registry.h"
#include "sim/memory/dram/presets.h"
#include "sim/memory/dram/streaming_efficiency.h"
#include "sim/thermal/package_config.h"

namespace polyarch::archs {

namespace {

// DRAM kinds of the v1 schema; the DRAM timing issue adds presets with full timing.
const std::vector<std::string> kDramKinds = {"ddr3",  "ddr4",  "ddr5", "lpddr4", "lpddr5",
                                             "hbm2",  "hbm2e", "hbm3", "gddr6",  "ideal"};
const std::vector<std::string> kInterconnectKinds = {"bus"};

sim::DramSpec parse_dram(const ConfigNode& node) {
  MapReader reader(node);
  sim::DramSpec dram;
  dram.kind = reader.optional_enum("kind", dram.kind, kDramKinds);
  // 0 means an ideal channel with unlimited bandwidth (SCALE-Sim's compute-only view).
  dram.bandwidth_gbps = reader.required_double("bandwidth_gbps", 0.0, 1e6);
  dram.latency_ns = reader.optional_double("latency_ns", dram.latency_ns, 0.0, 1e6);
  dram.channels = static_cast<int>(reader.optional_int("channels", dram.channels, 1, 1024));
  dram.capacity_gib = reader.optional_double("capacity_gib", dram.capacity_gib, 1e-6, 1e6);
  if (reader.has("timing")) {
    std::vector<std::string> presets;
    for (std::string_view name : sim::dram::preset_names()) presets.emplace_back(name);
    dram.timing_preset = reader.required_enum("timing", presets);
    dram.efficiency = sim::dram::preset_streaming_efficiency(dram.timing_preset);
  }
  reader.finish();
  return dram;
}

sim::DramSpec parse_memory(const ConfigNode& node) {
  MapReader reader(node);
  sim::DramSpec dram = parse_dram(reader.required("dram"));
  reader.finish();
  return dram;
}

sim::InterconnectSpec parse_interconnect(const ConfigNode& node) {
  MapReader reader(node);
  sim::InterconnectSpec interconnect;
  interconnect.kind = reader.optional_enum("kind", interconnect.kind, kInterconnectKinds);
  interconnect.bandwidth_gbps =
      reader.optional_double("bandwidth_gbps", interconnect.bandwidth_gbps, 0.0, 1e7);
  interconnect.latency_cycles = static_cast<int>(
      reader.optional_int("latency_cycles", interconnect.latency_cycles, 0, 1000000));
  interconnect.transfers =
      reader.optional_enum("transfers", interconnect.transfers, {"shared_dram", "copy"});
  reader.finish();
  return interconnect;
}

std::unique_ptr<UnitConfig> parse_unit(const ConfigNode& node) {
  MapReader reader(node);
  std::string name = reader.required_string("name");
  if (name.empty()) throw_bad_input(reader.required("name").where(), "unit name is empty");
  std::string kind = reader.required_enum("kind", unit_kind_names());
  std::unique_ptr<UnitConfig> unit = find_unit_kind(kind)->parse(reader, name);
  reader.finish();
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
  if (node == nullptr) return "28nm";
  const std::string& text = node->scalar();
  static const std::regex kNode("[1-9][0-9]*nm");
  if (!std::regex_match(text, kNode)) {
    throw_bad_input(node->where(), "expected a technology node like '28nm', got '" + text + "'");
  }
  return text;
}

}  // namespace

SocConfig parse_soc_config(const ConfigNode& root) {
  MapReader reader(root);
  SocConfig soc;
  soc.name = reader.required_string("name");
  soc.clock_ghz = reader.required_double("clock_ghz", 1e-6, 100.0);
  soc.technology = parse_technology(reader);
  soc.dram = parse_memory(reader.required("memory"));
  if (const ConfigNode* node = reader.optional("interconnect")) {
    soc.interconnect = parse_interconnect(*node);
  }
  soc.units = parse_units(reader.required("units"));
  soc.tech = sim::resolve_tech_table(soc.technology);
  if (const ConfigNode* node = reader.optional("energy")) {
    sim::apply_tech_overrides(soc.tech.table, *node);
  }
  // Mapping search prices energy with the same table the run's energy accounting uses.
  const auto table = std::make_shared<const sim::TechTable>(soc.tech.table);
  for (auto& unit : soc.units) unit->use_mapping_energy({table, soc.dram.kind});
  if (const ConfigNode* node = reader.optional("thermal")) {
    soc.thermal = sim::thermal::parse_package_config(*node);
  }
  if (const ConfigNode* node = reader.optional("dvfs")) soc.dvfs = sim::parse_dvfs_policy(*node);
  if (reader.optional("power_cap_w") != nullptr) {
    soc.power_cap_w = reader.required_double("power_cap_w", 1e-6, 1e7);
  }
  reader.finish();
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
    spec.units.push_back({unit->name(), unit->kind(), unit->factory(clock_ghz)});
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
  json["interconnect"] = {{"kind", interconnect.kind},
                          {"bandwidth_gbps", interconnect.bandwidth_gbps},
                          {"latency_cycles", interconnect.latency_cycles},
                          {"transfers", interconnect.transfers}};
  if (power_cap_w) json["power_cap_w"] = *power_cap_w;
  json["units"] = nlohmann::ordered_json::array();
  for (const auto& unit : units) json["units"].push_back(unit->describe());
  return json;
}

}  // namespace polyarch::archs
