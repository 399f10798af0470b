#pragma once
// An SoC as described by arch YAML v1: name, clock, technology, DRAM, interconnect and units.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "archs/unit_config.h"
#include "base/config_tree.h"
#include "sim/dvfs/dvfs_policy.h"
#include "sim/energy/tech_registry.h"
#include "sim/kernel/simulation.h"
#include "sim/memory/dram_spec.h"
#include "sim/physics/chip_physics.h"
#include "sim/thermal/package_config.h"

namespace polyarch::archs {

struct SocConfig {
  std::string name;
  double clock_ghz = 1.0;
  std::string technology = "28nm";
  // `devices:` the transistor flavour the die is built from, "hp" or "lstp"; lstp scales the
  // table's leakage density by its leakage_lstp_ratio (applied to `tech` below).
  std::string devices = "hp";
  // The energy table for `technology` (configs/tech/, or the nearest node with a note), with the
  // arch file's optional `energy:` overrides applied.
  sim::ResolvedTech tech;
  sim::DramSpec dram;
  sim::InterconnectSpec interconnect;
  // The thermal package (`thermal:`, HotSpot's keys and defaults); nullopt = the defaults.
  std::optional<sim::thermal::PackageConfig> thermal;
  // DVFS (`dvfs:`): throttling on temperature; nullopt = units run at nominal clocks.
  std::optional<sim::DvfsPolicy> dvfs;
  // `power_cap_w:` a chip-level power cap (W) the heterogeneous scheduler plans under
  // (mapping/partition/power_budget.h); nullopt = no cap.
  std::optional<double> power_cap_w;
  // `die_area_mm2:` the part's whole die (a published figure); the area beyond what the units'
  // models price leaks as uncore (sim/energy/chip_background.h). nullopt = not stated.
  std::optional<double> die_area_mm2;
  // `board: {regulator_efficiency: f}`: the board's voltage regulators deliver f of the power
  // they draw (a published figure); the report's board_power_w is the chip's over f. nullopt =
  // no board stated.
  std::optional<double> board_regulator_efficiency;
  std::vector<std::unique_ptr<UnitConfig>> units;

  // The SystemC-facing description: unit factories bound to this SoC's clock.
  sim::SystemSpec system_spec() const;
  // DRAM as the units' analytical estimates see it: the sustained bandwidth (limited by the
  // interconnect) and the latency of DRAM plus interconnect.
  MemoryContext memory_context() const;
  // What the physics (energy, power, thermal, leakage, DVFS) sees of this SoC; borrows it.
  sim::ChipPhysics physics() const;
  nlohmann::ordered_json describe() const;
  // Every unit runs the mappings `policy` searches (null: each unit's configured mapping).
  void use_mapping_search(const std::shared_ptr<const mapping::SearchPolicy>& policy);
};

// Parses and validates a whole arch document (after `base:` resolution). Errors name
// file:line:col and the key path.
SocConfig parse_soc_config(const ConfigNode& root);

// Loads an arch file, resolving `base:` includes.
SocConfig load_soc_config(const std::filesystem::path& path);

// True when a document looks like an arch file (has `units`), for `polyarch validate`.
bool looks_like_arch(const ConfigNode& root);

}  // namespace polyarch::archs
