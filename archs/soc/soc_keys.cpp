#include "archs/soc/soc_keys.h"

#include "archs/registry.h"
#include "base/key_specs.h"
#include "sim/dvfs/dvfs_policy.h"
#include "sim/kernel/simulation.h"
#include "sim/memory/dram/dram_yaml.h"
#include "sim/memory/dram/presets.h"
#include "sim/memory/dram_spec.h"
#include "sim/thermal/package_config.h"

namespace polyarch::archs {

namespace {

std::vector<std::string> dram_presets() {
  std::vector<std::string> names;
  for (std::string_view name : sim::dram::preset_names()) names.emplace_back(name);
  return names;
}

// A slab's three material keys under `prefix` ("die", "tim", "spreader", "sink").
void add_material_keys(std::vector<KeySpec>& keys, const std::string& prefix,
                       const sim::thermal::MaterialLayer& layer) {
  // Generous physical bounds (as the parser's): they catch mm written for m.
  keys.push_back(number_key(prefix + ".thickness_m", "m", default_text(layer.thickness_m), 0, 1.0,
                            "thickness (> 0)"));
  keys.push_back(number_key(prefix + ".conductivity", "W/(m*K)", default_text(layer.conductivity),
                            0, 1e5, "thermal conductivity (> 0)"));
  keys.push_back(number_key(prefix + ".volumetric_heat_capacity", "J/(m^3*K)",
                            default_text(layer.volumetric_heat_capacity), 0, 1e9,
                            "volumetric heat capacity (> 0)"));
}

}  // namespace

const KeyTable& soc_keys() {
  static const KeyTable table = [] {
    const sim::InterconnectSpec interconnect;
    return KeyTable{
        "soc",
        "the top level of an arch file",
        {string_key("base", "none", "an arch file this one overrides (merged before parsing)"),
         descriptive(string_key("name", kRequired, "the SoC's name")),
         number_key("clock_ghz", "GHz", kRequired, 1e-6, 100.0,
                    "the SoC clock; units without their own run at it"),
         string_key("technology", "28nm",
                    "node of the energy and area table configs/tech/<node>.yaml"),
         map_key("energy", "{}",
                 "overrides of technology-table entries (keys of configs/tech/*.yaml)"),
         choice_key("devices", "hp", {"hp", "lstp"},
                    "the transistors the die is built from: lstp (low standby power) leaks the "
                    "technology table's leakage_lstp_ratio of hp's density"),
         number_key("power_cap_w", "W", "none", 1e-6, 1e7,
                    "chip power the multi-unit scheduler plans under (several units only)"),
         number_key("die_area_mm2", "mm2", "none", 1e-6, 1e5,
                    "the part's whole die; the area its units' models do not price leaks as "
                    "uncore (larger than the units' modelled area)"),
         map_key("board", "none",
                 "the board around the chip, where its power is measured at the board's input"),
         number_key("board.regulator_efficiency", "fraction", kRequired, 0.01, 1.0,
                    "the board's voltage regulators: chip power over the power they draw "
                    "(board_power_w = avg_power_w / this)"),
         map_key("memory", kRequired, "DRAM (--describe memory)"),
         map_key("interconnect", "{}", "the path between units and DRAM"),
         choice_key("interconnect.kind", interconnect.kind, {"bus"}, "interconnect model"),
         number_key("interconnect.bandwidth_gbps", "GB/s",
                    default_text(interconnect.bandwidth_gbps), 0, 1e7,
                    "0 = unlimited; else min(bus, DRAM) limits transfers"),
         int_key("interconnect.latency_cycles", "cycles", default_text(interconnect.latency_cycles),
                 0, 1000000, "SoC cycles added to every DRAM access and hand-over between units"),
         choice_key("interconnect.transfers", interconnect.transfers, {"shared_dram", "copy"},
                    "how a result reaches a consumer on another unit (copy: several units only)"),
         list_key("units", kRequired, "at least one unit, names unique (--describe KIND)"),
         map_key("thermal", "{}", "the thermal package (--describe thermal)"),
         map_key("dvfs", "none", "thermal throttling (--describe dvfs)")}};
  }();
  return table;
}

const KeyTable& memory_keys() {
  static const KeyTable table = [] {
    const sim::DramSpec dram;
    return KeyTable{
        "memory",
        "the DRAM behind every unit (`memory: {dram: {...}}`)",
        {map_key("dram", kRequired,
                 "the DRAM: these keys (simple), or a JEDEC description (--describe dram)"),
         choice_key("dram.model", "simple", {"simple", "jedec"},
                    "simple: a bandwidth/latency queue; jedec needs the JEDEC form, where it is "
                    "the default"),
         choice_key("dram.kind", dram.kind,
                    {"ddr3", "ddr4", "ddr5", "lpddr4", "lpddr5", "hbm2", "hbm2e", "hbm3", "gddr6",
                     "ideal"},
                    "DRAM standard (its energy per bit in the technology table)"),
         number_key("dram.bandwidth_gbps", "GB/s", kRequired, 0.0, 1e6,
                    "peak bandwidth (10^9 B/s); 0 = unlimited"),
         number_key("dram.latency_ns", "ns", default_text(dram.latency_ns), 0.0, 1e6,
                    "latency of an access"),
         // The simple model is one queue of bandwidth_gbps by design; channel-level behaviour
         // (banks, interleaving, refresh) is the JEDEC form's. Each channel still draws the
         // kind's background power (sim/energy/chip_background.h).
         int_key("dram.channels", "", default_text(dram.channels), 1, 1024,
                 "channels: each draws the kind's background power (the queue is one pipe of "
                 "bandwidth_gbps)"),
         number_key("dram.capacity_gib", "GiB", default_text(dram.capacity_gib), 1e-6, 1e6,
                    "capacity (reported beside the tensors' footprint)"),
         choice_key("dram.timing", "none", dram_presets(),
                    "timing preset whose measured streaming efficiency scales bandwidth_gbps")}};
  }();
  return table;
}

const KeyTable& thermal_keys() {
  static const KeyTable table = [] {
    const sim::thermal::PackageConfig package;
    std::vector<KeySpec> keys = {
        choice_key("model", "block", {"block", "grid"},
                   "HotSpot model: one node per unit, or a grid"),
        int_key("grid_rows", "", default_text(package.model.grid_rows), 1,
                sim::thermal::kMaxGridCells,
                "grid model rows (rows x cols <= 16384; model: grid only)"),
        int_key("grid_cols", "", default_text(package.model.grid_cols), 1,
                sim::thermal::kMaxGridCells, "grid model columns (model: grid only)"),
        number_key("ambient_k", "K", default_text(package.ambient_k), 0, 1e4,
                   "ambient temperature (> 0)"),
        number_key("sampling_interval_s", "s", default_text(package.sampling_interval_s), 0, 1e6,
                   "HotSpot's sampling interval (> 0); `polyarch thermal` only: a run samples at "
                   "its power window"),
        map_key("die", "{}", "the silicon die")};
    add_material_keys(keys, "die", package.die);
    keys.push_back(map_key("tim", "{}", "thermal interface material"));
    add_material_keys(keys, "tim", package.tim);
    for (const auto& [name, layer] :
         {std::pair{"spreader", package.spreader}, std::pair{"sink", package.sink}}) {
      const std::string prefix = name;
      keys.push_back(map_key(prefix, "{}", "square slab under the die"));
      keys.push_back(number_key(prefix + ".side_m", "m", default_text(layer.side_m), 0, 10.0,
                                "side of the square (> 0; spreader <= sink)"));
      add_material_keys(keys, prefix, layer);
    }
    keys.push_back(map_key("convection", "{}", "sink to ambient"));
    keys.push_back(number_key("convection.r_k_per_w", "K/W",
                              default_text(package.convection.r_k_per_w), 0, 1e6,
                              "thermal resistance of the whole sink (> 0)"));
    keys.push_back(number_key("convection.c_j_per_k", "J/K",
                              default_text(package.convection.c_j_per_k), 0, 1e9,
                              "lumped air-side capacitance (> 0)"));
    return KeyTable{"thermal", "the package around the die (HotSpot's keys and defaults)",
                    std::move(keys)};
  }();
  return table;
}

const KeyTable& dvfs_keys() {
  static const KeyTable table = [] {
    const sim::DvfsPolicy policy;
    return KeyTable{
        "dvfs",
        "thermal throttling: a unit whose block passes trip_c steps down one level per sample",
        {number_key("trip_c", "C", kRequired, sim::kDvfsLowestC, sim::kDvfsHighestC,
                    "temperature above which a unit steps down one level"),
         number_key("release_c", "C", kRequired, sim::kDvfsLowestC, sim::kDvfsHighestC,
                    "temperature below which it steps back up (below trip_c: the hysteresis)"),
         number_key("interval_s", "s", default_text(policy.interval_s), sim::kDvfsShortestIntervalS,
                    sim::kDvfsLongestIntervalS,
                    "the controller's sampling interval (one step per sample at most)"),
         int_key("max_iterations", "", std::to_string(policy.max_iterations), 1,
                 sim::kDvfsMostIterations,
                 "simulate-temperature-schedule rounds before the last round's schedule is "
                 "reported with a note"),
         list_key("levels", kRequired,
                  "the slower levels, each {clock_scale, vdd_scale} in (0, 1], clock scales "
                  "falling")}};
  }();
  return table;
}

std::vector<std::string> key_table_names() {
  std::vector<std::string> names = {"soc", "memory", "thermal", "dvfs"};
  for (const UnitKindEntry& kind : unit_kinds()) names.push_back(kind.kind);
  names.push_back("dram");  // memory.dram's JEDEC form
  return names;
}

const KeyTable& key_table_named(const std::string& name) {
  if (name == "soc") return soc_keys();
  if (name == "memory") return memory_keys();
  if (name == "dram") return sim::dram::dram_keys();
  if (name == "thermal") return thermal_keys();
  if (name == "dvfs") return dvfs_keys();
  if (const UnitKindEntry* kind = find_unit_kind(name)) return *kind->keys;
  std::string message = "no key table '" + name + "'";
  const std::vector<std::string> names = key_table_names();
  if (std::string near = nearest_spelling(name, names); !near.empty()) {
    message += "; did you mean '" + near + "'?";
  }
  std::string list;
  for (const std::string& known : names) list += (list.empty() ? "" : ", ") + known;
  throw_bad_input({}, message + " (tables: " + list + ")");
}

}  // namespace polyarch::archs
