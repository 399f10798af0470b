#include "sim/memory/dram/dram_yaml.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/key_reader.h"
#include "base/key_specs.h"
#include "sim/memory/dram/dramsim3_ini.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

// A key left out keeps the preset's value.
constexpr const char* kFromPreset = "preset";

struct IntField {
  const char* key;
  const char* doc;
  std::function<void(DramConfig&, int64_t)> set;
};

const std::vector<IntField>& organization_fields() {
  static const std::vector<IntField> fields = {
      {"channels", "independent channels",
       [](DramConfig& c, int64_t v) { c.organization.channels = static_cast<int>(v); }},
      {"pseudo_channels", "pseudo-channels per channel (HBM), each with its own controller",
       [](DramConfig& c, int64_t v) { c.organization.pseudo_channels = static_cast<int>(v); }},
      {"ranks", "ranks per (pseudo-)channel, sharing its command and data buses",
       [](DramConfig& c, int64_t v) { c.organization.ranks = static_cast<int>(v); }},
      {"bank_groups", "bank groups per (pseudo-)channel",
       [](DramConfig& c, int64_t v) { c.organization.bank_groups = static_cast<int>(v); }},
      {"banks_per_group", "banks per bank group",
       [](DramConfig& c, int64_t v) { c.organization.banks_per_group = static_cast<int>(v); }},
      {"rows", "rows per bank", [](DramConfig& c, int64_t v) { c.organization.rows = v; }},
      {"columns", "column addresses per row",
       [](DramConfig& c, int64_t v) { c.organization.columns = static_cast<int>(v); }},
      {"device_width", "data pins of one device", [](DramConfig&, int64_t) {}},
      {"bus_width", "data bus of one channel, bits",
       [](DramConfig& c, int64_t v) { c.organization.channel_width_bits = static_cast<int>(v); }},
      {"burst_length", "transfers per burst (BL)",
       [](DramConfig& c, int64_t v) { c.organization.burst_length = static_cast<int>(v); }},
      {"transfers_per_clock", "data transfers per tCK: 2 for DDR, 4 or 8 with a WCK clock",
       [](DramConfig&, int64_t) {}},
  };
  return fields;
}

struct TimingField {
  const char* key;
  const char* doc;
  int64_t DramTiming::*field;
};

const std::vector<TimingField>& timing_fields() {
  static const std::vector<TimingField> fields = {
      {"CL", "RD to first data (read latency)", &DramTiming::tCL},
      {"CWL", "WR to first data (write latency)", &DramTiming::tWL},
      {"tRCD", "ACT to RD/WR, same bank", &DramTiming::tRCD},
      {"tRCDWR", "ACT to WR where it differs from tRCD (GDDR6, HBM)", &DramTiming::tRCDWR},
      {"tRP", "PRE to ACT, same bank", &DramTiming::tRP},
      {"tRAS", "ACT to PRE, same bank", &DramTiming::tRAS},
      {"tRFC", "REF to ACT or REF", &DramTiming::tRFC},
      {"tREFI", "interval between all-bank refreshes", &DramTiming::tREFI},
      {"tRRD_S", "ACT to ACT, different bank group", &DramTiming::tRRD_S},
      {"tRRD_L", "ACT to ACT, same bank group", &DramTiming::tRRD_L},
      {"tFAW", "window holding at most four ACTs", &DramTiming::tFAW},
      {"tCCD_S", "column to column, different bank group", &DramTiming::tCCD_S},
      {"tCCD_L", "column to column, same bank group", &DramTiming::tCCD_L},
      {"tWR", "end of write data to PRE (write recovery)", &DramTiming::tWR},
      {"tWTR_S", "end of write data to RD, different bank group", &DramTiming::tWTR_S},
      {"tWTR_L", "end of write data to RD, same bank group", &DramTiming::tWTR_L},
      {"tRTP", "RD to PRE, same bank", &DramTiming::tRTP},
      {"tRTRS", "idle data-bus cycles where the bus turns around or changes rank",
       &DramTiming::tRTRS},
      {"t32AW", "window holding at most 32 ACTs (GDDR6; 0: none)", &DramTiming::t32AW},
      {"tPPD", "PRE to PRE, any two banks of a rank (LPDDR4, GDDR; 0: none)", &DramTiming::tPPD},
      {"tRTP_L", "RD to PRE of a bank of the same bank group (HBM, GDDR; 0: none)",
       &DramTiming::tRTP_L},
      {"tRTP_S", "RD to PRE of a bank of another bank group (HBM, GDDR; 0: none)",
       &DramTiming::tRTP_S},
      {"tRFCb", "per-bank refresh to ACT of its bank (LPDDR4/5 tRFCpb, HBM tRFCSB)",
       &DramTiming::tRFCb},
      {"tREFIb", "interval between per-bank refreshes (LPDDR4/5 tREFIpb, HBM tREFISB)",
       &DramTiming::tREFIb},
  };
  return fields;
}

// Timings only some standards have: a description without a preset may leave them out.
bool optional_timing(std::string_view key) {
  return key == "tRCDWR" || key == "t32AW" || key == "tPPD" || key == "tRTP_L" || key == "tRTP_S" ||
         key == "tRFCb" || key == "tREFIb";
}

std::vector<std::string> address_mapping_names() {
  return {"row_bank_col", "row_col_bank", "bank_interleaved", "permuted_bank"};
}

KeyTable build_table() {
  KeyTable table{"dram",
                 "a JEDEC DRAM system (a preset and overrides): an arch file's memory.dram, or "
                 "`polyarch dram --config`",
                 {}};
  std::vector<KeySpec>& keys = table.keys;
  keys.push_back(choice_key("model", "jedec", {"jedec", "simple"},
                            "a run's backend: the controllers (jedec) or a bandwidth/latency queue "
                            "(simple); replay is always jedec"));
  keys.push_back(string_key("from", "none",
                            "a DRAMsim3 .ini file to start from instead of a preset (a path "
                            "relative to this file); every key below overrides it"));
  std::vector<std::string> standards = dram_standards();
  keys.push_back(
      choice_key("standard", "none", standards, "the JEDEC standard (default: the preset's)"));
  std::vector<std::string> presets;
  for (std::string_view name : preset_names()) presets.emplace_back(name);
  keys.push_back(choice_key("preset", "none", presets,
                            "starting point (default: the standard's); every key below "
                            "overrides it"));
  keys.push_back(map_key("organization", "{}", "how the DRAM is organised"));
  for (const IntField& field : organization_fields()) {
    KeySpec spec =
        int_key(std::string("organization.") + field.key, "", kFromPreset, 1, 1 << 30, field.doc);
    // Recorded by design: the capacity follows the bus width, the energy the technology
    // table's per-bit figure; nothing the controllers time depends on a device's pins.
    if (spec.leaf() == "device_width") spec.descriptive = true;
    keys.push_back(std::move(spec));
  }
  keys.push_back(map_key("timing", "{}", "timing parameters in tCK"));
  keys.push_back(
      number_key("timing.tCK_ns", "ns", kFromPreset, 0.01, 100.0, "command clock period"));
  for (const TimingField& field : timing_fields()) {
    keys.push_back(
        int_key(std::string("timing.") + field.key, "tCK", kFromPreset, 0, 1 << 30, field.doc));
  }
  keys.push_back(map_key("controller", "{}", "the memory controller"));
  keys.push_back(string_key("controller.address_mapping", kFromPreset,
                            "DRAMsim3 field order (rochrababgco, ...) or a named scheme"));
  keys.push_back(choice_key("controller.page_policy", "none", {"open", "closed"},
                            "when a row is closed (default: the preset's)"));
  keys.push_back(choice_key("controller.scheduler", "fr_fcfs", {"fr_fcfs", "bank_round_robin"},
                            "FR-FCFS over all queued bursts, or DRAMsim3's round-robin over "
                            "the banks' command queues (open page)"));
  keys.push_back(choice_key("controller.queue_structure", "per_bank", {"per_bank", "per_rank"},
                            "command queues per bank or per rank"));
  keys.push_back(int_key("controller.transaction_queue", "", "32", 1, 1 << 16,
                         "requests waiting before the command queues"));
  keys.push_back(int_key("controller.command_queue", "", "8", 1, 1 << 16,
                         "entries of each command queue, which the scheduler sees (given any "
                         "of these three keys; else the preset's single window)"));
  keys.push_back(choice_key(
      "controller.refresh", "rank_staggered",
      {"rank_staggered", "rank_simultaneous", "per_bank", "off"},
      "each rank's all-bank refresh every tREFI, the ranks' spread evenly over it or at the "
      "same cycles (the same with one rank); or one bank every tREFIb (LPDDR4/5, HBM)"));
  return table;
}

[[noreturn]] void bad_key(const ConfigNode& node, const std::string& message) {
  throw_bad_input(node.where(), message);
}

// `from: X.ini`: the DRAMsim3 file, resolved against the file the map is in.
DramDescription read_from_ini(KeyReader& top) {
  const ConfigNode& node = *top.map_reader().node().find("from");
  const std::string name = top.read_string("from");
  std::filesystem::path path(name);
  if (path.extension() != ".ini") {
    bad_key(node, "'" + name + "' is not a DRAMsim3 configuration (a .ini file)");
  }
  if (path.is_relative()) {
    path = std::filesystem::path(top.map_reader().node().where().file).parent_path() / path;
  }
  if (!std::filesystem::is_regular_file(path)) {
    bad_key(node, "cannot open '" + path.string() + "'");
  }
  return read_dramsim3_ini_file(path);
}

// Starts from the DRAMsim3 file, the preset or the standard's own preset, and checks they
// agree.
DramConfig starting_point(KeyReader& top, DramDescription& description, bool& from_preset) {
  MapReader& map = top.map_reader();
  std::optional<std::string> standard;
  if (map.has("standard")) standard = top.read_choice("standard");
  const auto key_node = [&](const char* key) -> const ConfigNode& {
    return map.node().find(key) != nullptr ? *map.node().find(key) : map.node();
  };
  if (map.has("from")) {
    if (map.has("preset")) {
      bad_key(key_node("preset"), "preset and from are two starting points; give one");
    }
    const std::string model = description.model;
    description = read_from_ini(top);
    description.model = model;
    if (standard && *standard != description.standard) {
      bad_key(key_node("standard"),
              "standard '" + *standard + "' contradicts from: its file is " + description.standard);
    }
    from_preset = true;
    return description.config;
  }
  std::string preset_name;
  if (map.has("preset")) {
    preset_name = top.read_choice("preset");
    if (standard && *standard != preset_standard(preset_name)) {
      bad_key(key_node("standard"), "standard '" + *standard + "' contradicts preset '" +
                                        preset_name + "' (a " + preset_standard(preset_name) +
                                        " preset)");
    }
  } else if (standard) {
    for (std::string_view name : preset_names()) {
      if (preset_standard(std::string(name)) == *standard) preset_name = std::string(name);
    }
  }
  from_preset = !preset_name.empty();
  description.standard = standard ? *standard : preset_standard(preset_name);
  if (!from_preset) {
    if (!standard) bad_key(map.node(), "a dram map needs a preset, a standard or from");
    DramConfig config;
    config.name = *standard;
    // HBM's separate row and column command buses (JESD235, JESD238).
    config.organization.dual_command_issue = standard->rfind("hbm", 0) == 0;
    return config;
  }
  return preset(preset_name);
}

void read_organization(KeyReader& top, DramDescription& description, bool from_preset,
                       std::vector<std::string>& missing) {
  KeyReader reader = top.nested_or_defaults("organization");
  DramConfig& config = description.config;
  const int64_t preset_transfers = config.transfers_per_clock();
  int64_t transfers = preset_transfers;
  for (const IntField& field : organization_fields()) {
    const std::optional<int64_t> value = reader.read_optional_int(field.key);
    const std::string key = field.key;
    if (!value) {
      if (!from_preset && key != "pseudo_channels" && key != "ranks" && key != "device_width")
        missing.push_back("organization." + key);
      continue;
    }
    if (key == "device_width") description.device_width_bits = static_cast<int>(*value);
    if (key == "transfers_per_clock") transfers = *value;
    field.set(config, *value);
  }
  reader.finish();
  config.organization.data_rate_mtps = config.organization.clock_mhz * transfers;
}

void read_timing(KeyReader& top, DramDescription& description, bool from_preset,
                 std::vector<std::string>& missing) {
  KeyReader reader = top.nested_or_defaults("timing");
  DramConfig& config = description.config;
  if (const std::optional<double> tck = reader.read_optional_number("tCK_ns")) {
    const int64_t transfers = config.transfers_per_clock();
    config.organization.clock_mhz = clock_mhz_for_period(*tck);
    config.organization.data_rate_mtps = config.organization.clock_mhz * transfers;
  } else if (!from_preset) {
    missing.push_back("timing.tCK_ns");
  }
  for (const TimingField& field : timing_fields()) {
    if (const std::optional<int64_t> value = reader.read_optional_int(field.key)) {
      config.timing.*field.field = *value;
      // One idle stretch serves both, as in DRAMsim3: the read-to-write turnaround of one rank
      // and the switch between ranks.
      if (field.field == &DramTiming::tRTRS) config.timing.tRTW_turnaround = *value;
    } else if (!from_preset && !optional_timing(field.key)) {
      missing.push_back(std::string("timing.") + field.key);
    }
  }
  reader.finish();
}

void read_controller(KeyReader& top, DramDescription& description) {
  KeyReader reader = top.nested_or_defaults("controller");
  MapReader& map = reader.map_reader();
  ControllerOptions& options = description.config.controller;
  if (map.has("address_mapping")) {
    const std::string mapping = reader.read_string("address_mapping");
    const std::vector<std::string> named = address_mapping_names();
    if (std::find(named.begin(), named.end(), mapping) != named.end()) {
      options.address_scheme = parse_address_scheme(mapping);
    } else if (looks_like_field_order(mapping) || mapping.size() == 12) {
      try {
        validate_field_order(mapping);
      } catch (const Error& error) {
        bad_key(*map.node().find("address_mapping"), error.message());
      }
      options.address_scheme = AddressScheme::kFieldOrder;
      options.field_order = mapping;
    } else {
      bad_key(*map.node().find("address_mapping"),
              "unknown address mapping '" + mapping +
                  "' (a DRAMsim3 field order such as rochrababgco, or row_bank_col, "
                  "row_col_bank, bank_interleaved, permuted_bank)");
    }
  }
  if (map.has("page_policy"))
    options.page_policy = parse_page_policy(reader.read_choice("page_policy"));
  // Left out, the scheduler is the starting point's (a DRAMsim3 file's may be round-robin).
  if (map.has("scheduler")) {
    options.bank_round_robin = reader.read_choice("scheduler") == "bank_round_robin";
  }
  const bool queues_given =
      map.has("transaction_queue") || map.has("command_queue") || map.has("queue_structure");
  const bool per_bank = reader.read_choice("queue_structure") == "per_bank";
  const int transaction_queue = static_cast<int>(reader.read_int("transaction_queue"));
  const int command_queue = static_cast<int>(reader.read_int("command_queue"));
  if (queues_given) {
    options.queue_depth = transaction_queue;
    options.command_queue_depth = command_queue;
    options.command_queue_per_bank = per_bank;
  }
  if (map.has("refresh")) {
    const std::string refresh = reader.read_choice("refresh");
    options.refresh = refresh != "off";
    options.refresh_staggered = refresh != "rank_simultaneous";
    options.refresh_per_bank = refresh == "per_bank";
    const std::vector<std::string> per_bank_standards = {"lpddr4", "lpddr5", "hbm2", "hbm2e",
                                                         "hbm3"};
    if (options.refresh_per_bank && std::find(per_bank_standards.begin(), per_bank_standards.end(),
                                              description.standard) == per_bank_standards.end()) {
      bad_key(*map.node().find("refresh"),
              "refresh: per_bank — " + description.standard +
                  " has no per-bank refresh (LPDDR4, LPDDR5, HBM2, HBM2E and HBM3 have)");
    }
  }
  reader.finish();
}

}  // namespace

const KeyTable& dram_keys() {
  static const KeyTable table = build_table();
  return table;
}

DramDescription read_dram_map(const ConfigNode& node) {
  MapReader map(node);
  ResolvedKeys resolved;
  KeyReader top(map, dram_keys(), resolved);
  DramDescription description;
  description.model = top.read_choice("model");
  bool from_preset = false;
  description.config = starting_point(top, description, from_preset);
  std::vector<std::string> missing;
  read_organization(top, description, from_preset, missing);
  read_timing(top, description, from_preset, missing);
  read_controller(top, description);
  // Timings written for controllers that would not use them: GDDR's 32-activate window
  // (JESD250 GDDR6) in another standard, and the per-bank refresh timings without per-bank
  // refresh.
  if (const ConfigNode* timing = node.find("timing")) {
    if (const ConfigNode* written = timing->find("t32AW");
        written != nullptr && description.standard.rfind("gddr", 0) != 0) {
      bad_key(*written,
              "timing.t32AW is GDDR's 32-activate window; " + description.standard + " has none");
    }
    for (const char* key : {"tREFIb", "tRFCb"}) {
      const ConfigNode* written = timing->find(key);
      if (written != nullptr && !description.config.controller.refresh_per_bank) {
        bad_key(*written, std::string("timing.") + key +
                              " times per-bank refresh; the controller refreshes all banks "
                              "(controller.refresh: per_bank uses it)");
      }
    }
  }
  top.finish();
  if (!missing.empty()) {
    std::string list;
    for (const std::string& key : missing) list += (list.empty() ? "" : ", ") + key;
    bad_key(node, "standard '" + description.standard +
                      "' has no preset, so every organization and timing key is needed; missing: " +
                      list);
  }
  description.config.validate();
  return description;
}

}  // namespace polyarch::sim::dram
