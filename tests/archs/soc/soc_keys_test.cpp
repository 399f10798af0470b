// The key tables `validate --describe` prints (soc, memory, thermal and each kind's): every key
// documented and typed, defaults inside their own ranges, misspelt keys answered from the
// table, and the thermal table, which its parser does not read, held to that parser.
#include "archs/soc/soc_keys.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>

#include "archs/soc/soc_config.h"
#include "base/key_specs.h"
#include "sim/dvfs/dvfs_policy.h"
#include "sim/thermal/package_config.h"

namespace polyarch::archs {
namespace {

// Why `spec`'s default breaks its own declaration, or "" when it does not. A default that is not
// a literal ("SoC clock", "none", "{}") says what applies instead and is not checked here.
std::string default_violation(const KeySpec& spec) {
  if (spec.required()) return "";
  if (spec.type == KeyType::kChoice) {
    const bool listed = std::find(spec.choices.begin(), spec.choices.end(), spec.default_value) !=
                        spec.choices.end();
    return listed || spec.default_value == "none" ? "" : "default is not one of the choices";
  }
  if (spec.type != KeyType::kInt && spec.type != KeyType::kNumber) return "";
  double value = 0;
  const std::string& text = spec.default_value;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return "";
  if (value < spec.min_value || value > spec.max_value) return "default outside its range";
  if (spec.type == KeyType::kInt && value != static_cast<double>(static_cast<int64_t>(value))) {
    return "int key with a fractional default";
  }
  return "";
}

std::string error_of(const std::string& text) {
  try {
    parse_soc_config(parse_config_text(text, "arch.yaml"));
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return error.what();
  }
  ADD_FAILURE() << "expected an error for:\n" << text;
  return "";
}

constexpr const char* kHead = R"(name: t
clock_ghz: 1.0
memory:
  dram: {kind: hbm2, bandwidth_gbps: 600}
)";

TEST(KeyTables, DescribeCoversTheSocSectionsAndEveryKind) {
  const std::vector<std::string> names = key_table_names();
  for (const std::string name :
       {"soc", "memory", "thermal", "dvfs", "systolic", "simd", "mimd", "pim", "crossbar",
        "dataflow"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

TEST(KeyTables, EveryKeyHasATypeAUniquePathAndADoc) {
  for (const std::string& name : key_table_names()) {
    const KeyTable& table = key_table_named(name);
    EXPECT_FALSE(table.summary.empty()) << name;
    std::vector<std::string> paths;
    for (const KeySpec& spec : table.keys) {
      EXPECT_FALSE(spec.doc.empty()) << name << "." << spec.path;
      EXPECT_NE(key_type_name(spec.type), "?") << name << "." << spec.path;
      if (spec.type == KeyType::kChoice) EXPECT_FALSE(spec.choices.empty()) << spec.path;
      EXPECT_EQ(std::count(paths.begin(), paths.end(), spec.path), 0) << name << "." << spec.path;
      paths.push_back(spec.path);
    }
  }
}

TEST(KeyTables, NestedKeysSitUnderADeclaredMap) {
  for (const std::string& name : key_table_names()) {
    const KeyTable& table = key_table_named(name);
    for (const KeySpec& spec : table.keys) {
      const std::size_t dot = spec.path.rfind('.');
      if (dot == std::string::npos) continue;
      EXPECT_EQ(table.at(spec.path.substr(0, dot)).type, KeyType::kMap) << name << "." << spec.path;
    }
  }
}

TEST(KeyTables, EveryDefaultLiesInsideItsOwnRange) {
  for (const std::string& name : key_table_names()) {
    for (const KeySpec& spec : key_table_named(name).keys) {
      EXPECT_EQ(default_violation(spec), "")
          << name << "." << spec.path << " = " << spec.default_value << " (" << spec.range_text()
          << ")";
    }
  }
}

TEST(KeyTables, TheRangeCheckCatchesADefaultOutsideItsRange) {
  const KeySpec too_big{"rows", KeyType::kInt, "PEs", "70000", 1, 65536, {}, "rows"};
  const KeySpec fractional{"rows", KeyType::kInt, "PEs", "2.5", 1, 65536, {}, "rows"};
  const KeySpec unlisted{"dataflow", KeyType::kChoice, "", "xs", 0, 0, {"os", "ws"}, "d"};
  EXPECT_EQ(default_violation(too_big), "default outside its range");
  EXPECT_EQ(default_violation(fractional), "int key with a fractional default");
  EXPECT_EQ(default_violation(unlisted), "default is not one of the choices");
}

TEST(KeyTables, UnknownNameListsTheTables) {
  try {
    key_table_named("systolik");
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(message.find("did you mean 'systolic'"), std::string::npos) << message;
    EXPECT_NE(message.find("soc, memory, thermal, dvfs, systolic"), std::string::npos) << message;
  }
}

// Locations are those of the misspelt key's value, as for every other config error (the config
// tree records where each value was written).
TEST(KeyTableSuggestions, MisspeltUnitKeyNamesTheKindsKeyAtItsLine) {
  const std::string message = error_of(std::string(kHead) + R"(units:
  - {name: a, kind: systolic, rows: 4, cols: 4, dataflow: os, scalesim_compta: false}
)");
  EXPECT_NE(message.find("arch.yaml:6:80"), std::string::npos) << message;
  EXPECT_NE(message.find("unknown key 'scalesim_compta'; did you mean 'scalesim_compat'?"),
            std::string::npos)
      << message;
}

TEST(KeyTableSuggestions, MisspeltNestedKeyNamesTheKeyOfItsMap) {
  const std::string message = error_of(std::string(kHead) + R"(units:
  - name: a
    kind: systolic
    rows: 4
    cols: 4
    dataflow: os
    buffers: {ifmap_kb: 64}
)");
  EXPECT_NE(message.find("arch.yaml:11:25"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'ifmap_kib'?"), std::string::npos) << message;
}

TEST(KeyTableSuggestions, MisspeltKeysOfMemoryAndTheTopLevelAreSuggested) {
  const std::string units = "units: [{name: a, kind: systolic, rows: 4, cols: 4, dataflow: os}]\n";
  const std::string memory = error_of(R"(name: t
clock_ghz: 1.0
memory:
  dram: {kind: hbm2, bandwidth_gbps: 600, latncy_ns: 90}
)" + units);
  EXPECT_NE(memory.find("arch.yaml:4:54"), std::string::npos) << memory;
  EXPECT_NE(memory.find("did you mean 'latency_ns'?"), std::string::npos) << memory;
  const std::string top = error_of(std::string(kHead) + units + "power_cap: 100\n");
  EXPECT_NE(top.find("arch.yaml:6:1"), std::string::npos) << top;
  EXPECT_NE(top.find("did you mean 'power_cap_w'?"), std::string::npos) << top;
  const std::string mimd = error_of(std::string(kHead) + R"(units:
  - name: c
    kind: mimd
    count: 4
    core: {vector_lanes: 16, local_kib: 64, vector_unit: 2}
    noc: {topology: ring, link_bytes_per_cycle: 32}
)");
  EXPECT_NE(mimd.find("did you mean 'vector_units'?"), std::string::npos) << mimd;
}

// Units of the kinds declared last, each with one key misspelt: the message names the nearest key
// of the map the misspelling sits in, at the misspelling's line.
TEST(KeyTableSuggestions, MisspeltKeysOfSimdDataflowAndCrossbarNameTheirNearestKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"(  - {name: g, kind: simd, count: 2, vector: {lanes: 32}, launch_overhead: 5,
       scratchpad: {kib: 64, bytes_per_cycle: 64}, l2: {capacity_mib: 1, bytes_per_cycle: 64},
       core_bytes_per_cycle: 64}
)",
       "did you mean 'launch_overhead_ns'?"},
      {R"(  - {name: g, kind: simd, count: 2, vector: {lanes: 32, sfu_lane: 4},
       scratchpad: {kib: 64, bytes_per_cycle: 64}, l2: {capacity_mib: 1, bytes_per_cycle: 64},
       core_bytes_per_cycle: 64}
)",
       "did you mean 'sfu_lanes'?"},
      {R"(  - {name: f, kind: dataflow, pe: {rows: 2, cols: 2, alu_ops: [add]},
       network: {topology: mesh}, config: {load_cycles: 10},
       memory_pes: {count: 2, scratchpad_kib: 8, bytes_per_cycle: 8, port: 2}}
)",
       "did you mean 'ports'?"},
      {R"(  - {name: x, kind: crossbar, tiles: 1, arrays_per_tile: 1, rows: 8, cols: 8,
       cell: {bits_per_cell: 2}, adc: {bits: 4, columns_per_adc: 8, sample_rate_gsps: 1},
       read_ns: 10, peripheral_n: 5}
)",
       "did you mean 'peripheral_ns'?"},
      {R"(  - {name: x, kind: crossbar, tiles: 1, arrays_per_tile: 1, rows: 8, cols: 8,
       cell: {bits_per_cell: 2}, adc: {bits: 4, columns_per_adc: 8, sample_rate_gsps: 1},
       read_ns: 10, analog: {read_sigm: 0.1}}
)",
       "did you mean 'read_sigma'?"}};
  for (const auto& [unit, suggestion] : cases) {
    const std::string message = error_of(std::string(kHead) + "units:\n" + unit);
    EXPECT_NE(message.find("arch.yaml:"), std::string::npos) << message;
    EXPECT_NE(message.find(suggestion), std::string::npos) << message;
  }
}

// A section with `spec`'s leaf written at `value`, the maps of its path created on the way.
void set_path(nlohmann::ordered_json& section, const KeySpec& spec) {
  nlohmann::ordered_json* map = &section;
  std::string path = spec.path;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.')) {
    map = &(*map)[path.substr(0, dot)];
    path = path.substr(dot + 1);
  }
  (*map)[path] = spec.type == KeyType::kChoice ? nlohmann::ordered_json(spec.default_value)
                                               : nlohmann::ordered_json::parse(spec.default_value);
}

// Every thermal key written out at its table default parses, and gives the package the parser
// gives with nothing written: the table names exactly the parser's keys and defaults.
TEST(ThermalKeys, EveryKeyAtItsDefaultParsesToTheParsersDefaults) {
  nlohmann::ordered_json section = nlohmann::ordered_json::object();
  for (const KeySpec& spec : thermal_keys().keys) {
    if (spec.type != KeyType::kMap) set_path(section, spec);
  }
  // JSON is YAML: the flow map parses as the `thermal:` section.
  const sim::thermal::PackageConfig written =
      sim::thermal::parse_package_config(parse_config_text(section.dump(), "thermal.yaml"));
  const sim::thermal::PackageConfig defaults;
  EXPECT_EQ(written.model.kind, defaults.model.kind);
  EXPECT_EQ(written.model.grid_rows, defaults.model.grid_rows);
  EXPECT_DOUBLE_EQ(written.ambient_k, 318.15);  // HotSpot's example.config: 45 C
  EXPECT_DOUBLE_EQ(written.sampling_interval_s, defaults.sampling_interval_s);
  EXPECT_DOUBLE_EQ(written.die.thickness_m, 0.00015);
  EXPECT_DOUBLE_EQ(written.tim.conductivity, defaults.tim.conductivity);
  EXPECT_DOUBLE_EQ(written.spreader.side_m, 0.03);
  EXPECT_DOUBLE_EQ(written.sink.side_m, 0.06);
  EXPECT_DOUBLE_EQ(written.sink.volumetric_heat_capacity, defaults.sink.volumetric_heat_capacity);
  EXPECT_DOUBLE_EQ(written.convection.r_k_per_w, 0.1);
  EXPECT_DOUBLE_EQ(written.convection.c_j_per_k, 140.4);
}

// Every dvfs key written out (the optional ones at their table defaults) parses to the parser's
// defaults: the table names exactly the parser's keys and defaults.
TEST(DvfsKeys, EveryKeyAtItsDefaultParsesToTheParsersDefaults) {
  nlohmann::ordered_json section = {{"trip_c", 85}, {"release_c", 80}};
  section["levels"] = nlohmann::ordered_json::array({{{"clock_scale", 0.5}, {"vdd_scale", 0.9}}});
  std::vector<std::string> keys;
  for (const KeySpec& spec : dvfs_keys().keys) {
    keys.push_back(spec.path);
    if (spec.default_value != kRequired) set_path(section, spec);
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"trip_c", "release_c", "interval_s", "max_iterations",
                                            "levels"}));
  const sim::DvfsPolicy written =
      sim::parse_dvfs_policy(parse_config_text(section.dump(), "dvfs.yaml"));
  const sim::DvfsPolicy defaults;
  EXPECT_DOUBLE_EQ(written.interval_s, defaults.interval_s);
  EXPECT_EQ(written.max_iterations, defaults.max_iterations);
  ASSERT_EQ(written.levels.size(), 2U);
  EXPECT_DOUBLE_EQ(written.levels[1].clock_scale, 0.5);
}

// The describe() of a unit written with only its required keys equals the one with every
// optional key spelt out at the table's default: the parser's defaults are the table's.
TEST(UnitKeys, TableDefaultsAreTheParsersDefaults) {
  const std::vector<std::pair<std::string, std::string>> required = {
      {"systolic", R"({"name": "u", "kind": "systolic", "rows": 4, "cols": 8, "dataflow": "os"})"},
      {"mimd", R"({"name": "u", "kind": "mimd", "count": 4,
                   "core": {"vector_lanes": 16, "local_kib": 64},
                   "noc": {"topology": "mesh", "columns": 2, "link_bytes_per_cycle": 32}})"},
      {"pim", R"({"name": "u", "kind": "pim", "memory": "hbm2e_3200", "lanes": 16})"},
      {"simd", R"({"name": "u", "kind": "simd", "count": 2, "vector": {"lanes": 32},
                   "matrix_engine": {"per_core": 1, "macs_per_cycle": {"fp16": 64}},
                   "scratchpad": {"kib": 64, "bytes_per_cycle": 64},
                   "l2": {"capacity_mib": 1, "bytes_per_cycle": 256},
                   "core_bytes_per_cycle": 64})"},
      {"dataflow", R"({"name": "u", "kind": "dataflow",
                       "pe": {"rows": 2, "cols": 2, "alu_ops": ["add", "mul"]},
                       "network": {"topology": "mesh"},
                       "memory_pes": {"count": 2, "scratchpad_kib": 8, "bytes_per_cycle": 8},
                       "config": {"bytes_per_pe": 16, "bus_bytes_per_cycle": 4}})"},
      {"crossbar", R"({"name": "u", "kind": "crossbar", "tiles": 1, "arrays_per_tile": 2,
                       "rows": 16, "cols": 16, "cell": {"bits_per_cell": 2},
                       "adc": {"bits": 6, "columns_per_adc": 8, "sample_rate_gsps": 1.0},
                       "read_ns": 10})"}};
  for (const auto& [kind, minimal] : required) {
    nlohmann::ordered_json full = nlohmann::ordered_json::parse(minimal);
    const std::size_t required_keys = full.dump().size();
    for (const KeySpec& spec : key_table_named(kind).keys) {
      if (spec.required() || spec.type == KeyType::kMap || spec.type == KeyType::kList) continue;
      const bool numeric = spec.type == KeyType::kNumber || spec.type == KeyType::kInt;
      if ((numeric &&
           spec.default_value.find_first_not_of("0123456789.e-+") != std::string::npos) ||
          spec.default_value == "none") {
        continue;  // "SoC clock", "tech table", "none": not a value
      }
      set_path(full, spec);
    }
    ASSERT_GT(full.dump().size(), required_keys) << kind;  // optional keys were written out
    const auto unit_of = [](const std::string& unit) {
      SocConfig soc = parse_soc_config(
          parse_config_text(std::string(kHead) + "units: [" + unit + "]\n", "arch.yaml"));
      return soc.units[0]->describe();
    };
    EXPECT_EQ(unit_of(minimal), unit_of(full.dump())) << kind;
  }
}

}  // namespace
}  // namespace polyarch::archs
