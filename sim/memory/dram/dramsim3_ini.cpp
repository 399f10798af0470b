#include "sim/memory/dram/dramsim3_ini.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <vector>

#include "base/error.h"

namespace polyarch::sim::dram {
namespace {

struct IniValue {
  std::string text;
  int line = 0;
};

// Keys DRAMsim3 reads that change nothing polyarch simulates: power currents, power-down and
// self-refresh timings, preambles, thermal and output options.
const std::set<std::string>& unmodelled_keys() {
  static const std::set<std::string> keys = {"dram_structure.num_dies",
                                             "timing.tRFC2",
                                             "timing.tRFC4",
                                             "timing.tRPRE",
                                             "timing.tWPRE",
                                             "timing.tWR2",
                                             "timing.tCKE",
                                             "timing.tCKESR",
                                             "timing.tCKSRE",
                                             "timing.tXS",
                                             "timing.tXP",
                                             "timing.ideal_memory_latency",
                                             "system.unified_queue",
                                             "system.write_buf_size",
                                             "system.enable_self_refresh",
                                             "system.sref_threshold",
                                             "system.aggressive_precharging_enabled",
                                             "other.epoch_period",
                                             "other.output_level",
                                             "other.output_prefix"};
  return keys;
}

// Keys that set what polyarch simulates.
const std::set<std::string>& modelled_keys() {
  static const std::set<std::string> keys = {"dram_structure.protocol",
                                             "dram_structure.bankgroups",
                                             "dram_structure.banks_per_group",
                                             "dram_structure.bankgroup_enable",
                                             "dram_structure.hbm_dual_cmd",
                                             "dram_structure.rows",
                                             "dram_structure.columns",
                                             "dram_structure.device_width",
                                             "dram_structure.BL",
                                             "timing.tCK",
                                             "timing.AL",
                                             "timing.CL",
                                             "timing.CWL",
                                             "timing.tCCD_L",
                                             "timing.tCCD_S",
                                             "timing.tRTRS",
                                             "timing.tRTP",
                                             "timing.tWTR_L",
                                             "timing.tWTR_S",
                                             "timing.tWR",
                                             "timing.tRP",
                                             "timing.tRRD_L",
                                             "timing.tRRD_S",
                                             "timing.tRAS",
                                             "timing.tRCD",
                                             "timing.tRFC",
                                             "timing.tREFI",
                                             "timing.tFAW",
                                             "timing.tRCDRD",
                                             "timing.tRCDWR",
                                             "timing.t32AW",
                                             "timing.tPPD",
                                             "timing.tRTP_L",
                                             "timing.tRTP_S",
                                             "timing.tRFCb",
                                             "timing.tREFIb",
                                             "system.channel_size",
                                             "system.channels",
                                             "system.bus_width",
                                             "system.address_mapping",
                                             "system.queue_structure",
                                             "system.row_buf_policy",
                                             "system.cmd_queue_size",
                                             "system.trans_queue_size",
                                             "system.refresh_policy"};
  return keys;
}

// Whole sections polyarch does not model.
bool unmodelled_section(const std::string& section) {
  return section == "power" || section == "thermal" || section == "hmc";
}

class IniFile {
 public:
  IniFile(std::istream& in, std::string file) : file_(std::move(file)) {
    std::string section;
    int line = 0;
    for (std::string text; std::getline(in, text);) {
      ++line;
      const size_t comment = text.find_first_of(";#");
      if (comment != std::string::npos) text.erase(comment);
      text = trimmed(text);
      if (text.empty()) continue;
      if (text.front() == '[') {
        if (text.back() != ']') fail(line, "", "a section header needs a closing ']'");
        section = trimmed(text.substr(1, text.size() - 2));
        continue;
      }
      const size_t equals = text.find('=');
      if (equals == std::string::npos) fail(line, section, "expected 'key = value'");
      const std::string key = trimmed(text.substr(0, equals));
      const std::string path = section + "." + key;
      if (section.empty()) fail(line, "", "key '" + key + "' is outside any section");
      if (!unmodelled_section(section) && !modelled_keys().count(path) &&
          !unmodelled_keys().count(path)) {
        fail(line, section, "unknown key '" + key + "' in section [" + section + "]");
      }
      if (unmodelled_section(section) || unmodelled_keys().count(path)) unmodelled_.push_back(path);
      values_[path] = {trimmed(text.substr(equals + 1)), line};
    }
  }

  [[noreturn]] void fail(int line, const std::string& section, const std::string& message) const {
    SourceLocation where;
    where.file = file_;
    where.line = line;
    where.key_path = section;
    throw_bad_input(where, message);
  }
  [[noreturn]] void fail_key(const std::string& path, const std::string& message) const {
    SourceLocation where;
    where.file = file_;
    const auto found = values_.find(path);
    if (found != values_.end()) where.line = found->second.line;
    where.key_path = "[" + path.substr(0, path.find('.')) + "] " + path.substr(path.find('.') + 1);
    throw_bad_input(where, message);
  }

  std::string text(const std::string& path, const std::string& fallback) const {
    const auto found = values_.find(path);
    return found == values_.end() ? fallback : found->second.text;
  }
  int64_t integer(const std::string& path, int64_t fallback) const {
    return number<int64_t>(path, fallback, "an integer", [](const std::string& text, size_t* used) {
      return std::stoll(text, used);
    });
  }
  double real(const std::string& path, double fallback) const {
    const double value =
        number<double>(path, fallback, "a number",
                       [](const std::string& text, size_t* used) { return std::stod(text, used); });
    if (!(value > 0)) fail_key(path, "'" + text(path, "") + "' is not a positive number");
    return value;
  }
  bool boolean(const std::string& path, bool fallback) const {
    std::string value = text(path, fallback ? "true" : "false");
    std::transform(value.begin(), value.end(), value.begin(), ::tolower);
    if (value == "true" || value == "yes" || value == "on" || value == "1") return true;
    if (value == "false" || value == "no" || value == "off" || value == "0") return false;
    fail_key(path, "'" + value + "' is not true or false");
  }
  const std::vector<std::string>& unmodelled() const { return unmodelled_; }
  const std::string& file() const { return file_; }

 private:
  // The value at `path` read by `convert` (std::stoll, std::stod), which must take all of it.
  template <class Number, class Convert>
  Number number(const std::string& path, Number fallback, const std::string& kind,
                Convert convert) const {
    const auto found = values_.find(path);
    if (found == values_.end()) return fallback;
    const std::string& written = found->second.text;
    size_t used = 0;
    Number value{};
    try {
      value = convert(written, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != written.size()) fail_key(path, "'" + written + "' is not " + kind);
    return value;
  }

  static std::string trimmed(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
  }

  std::string file_;
  std::map<std::string, IniValue> values_;
  std::vector<std::string> unmodelled_;
};

struct Protocol {
  std::string standard;
  int64_t transfers_per_clock = 2;  // DRAMsim3's BL / burst_cycle
  bool gddr = false;
  bool hbm = false;
};

Protocol protocol_of(const IniFile& ini) {
  const std::string name = ini.text("dram_structure.protocol", "DDR3");
  static const std::map<std::string, Protocol> known = {
      {"DDR3", {"ddr3", 2, false, false}},     {"DDR4", {"ddr4", 2, false, false}},
      {"LPDDR", {"lpddr", 2, false, false}},   {"LPDDR3", {"lpddr3", 2, false, false}},
      {"LPDDR4", {"lpddr4", 2, false, false}}, {"GDDR5", {"gddr5", 4, true, false}},
      {"GDDR5X", {"gddr5x", 8, true, false}},  {"GDDR6", {"gddr6", 16, true, false}},
      {"HBM", {"hbm2", 2, false, true}},       {"HBM2", {"hbm2", 2, false, true}}};
  const auto found = known.find(name);
  if (found == known.end()) {
    ini.fail_key("dram_structure.protocol",
                 "protocol '" + name +
                     "' is not modelled (DDR3, DDR4, LPDDR, LPDDR3, LPDDR4, "
                     "GDDR5, GDDR5X, GDDR6, HBM, HBM2)");
  }
  return found->second;
}

void read_structure(const IniFile& ini, const Protocol& protocol, DramDescription& description) {
  DramOrganization& org = description.config.organization;
  org.bank_groups = static_cast<int>(ini.integer("dram_structure.bankgroups", 2));
  org.banks_per_group = static_cast<int>(ini.integer("dram_structure.banks_per_group", 2));
  if (!ini.boolean("dram_structure.bankgroup_enable", true)) {
    org.banks_per_group *= org.bank_groups;
    org.bank_groups = 1;
  }
  org.rows = ini.integer("dram_structure.rows", 1 << 16);
  org.burst_length = static_cast<int>(ini.integer("dram_structure.BL", 8));
  if (org.burst_length < protocol.transfers_per_clock ||
      org.burst_length % protocol.transfers_per_clock != 0) {
    ini.fail_key("dram_structure.BL", "BL " + std::to_string(org.burst_length) +
                                          " is not whole clock cycles for " + protocol.standard);
  }
  // DRAMsim3 counts a GDDR row's columns per burst (x BL) and an HBM row's per half (x 2).
  int64_t columns = ini.integer("dram_structure.columns", 1 << 10);
  if (protocol.gddr) columns *= org.burst_length;
  if (protocol.hbm) columns *= 2;
  org.columns = static_cast<int>(columns);
  description.device_width_bits = static_cast<int>(ini.integer("dram_structure.device_width", 8));
  org.channel_width_bits = static_cast<int>(ini.integer("system.bus_width", 64));
  org.channels = static_cast<int>(ini.integer("system.channels", 1));
  org.pseudo_channels = 1;
  // DRAMsim3's Config: hbm_dual_cmd (default true) applies to HBM only.
  org.dual_command_issue = protocol.hbm && ini.boolean("dram_structure.hbm_dual_cmd", true);
  if (description.device_width_bits <= 0 ||
      org.channel_width_bits % description.device_width_bits != 0) {
    ini.fail_key("system.bus_width", "bus_width " + std::to_string(org.channel_width_bits) +
                                         " is not a whole number of " +
                                         std::to_string(description.device_width_bits) +
                                         "-bit devices");
  }
}

// DRAMsim3's Config::CalculateSize: ranks = channel_size / the megabytes of one rank, one
// where channel_size is smaller than a rank.
void read_ranks(const IniFile& ini, DramDescription& description) {
  DramOrganization& org = description.config.organization;
  const int64_t page_bytes = int64_t{org.columns} * description.device_width_bits / 8;
  const int64_t megs_per_bank = page_bytes * (org.rows / 1024) / 1024;
  const int64_t devices = org.channel_width_bits / description.device_width_bits;
  const int64_t megs_per_rank = megs_per_bank * org.bank_groups * org.banks_per_group * devices;
  const int64_t channel_mb = ini.integer("system.channel_size", 1024);
  const int64_t ranks =
      megs_per_rank > channel_mb ? 1 : channel_mb / std::max<int64_t>(megs_per_rank, 1);
  if ((ranks & (ranks - 1)) != 0 || ranks > 32) {
    ini.fail_key("system.channel_size", "channel_size " + std::to_string(channel_mb) + " MB is " +
                                            std::to_string(ranks) + " ranks of " +
                                            std::to_string(megs_per_rank) +
                                            " MB; the ranks must be a power of two, at most 32");
  }
  org.ranks = static_cast<int>(ranks);
}

void read_timing(const IniFile& ini, const Protocol& protocol, DramDescription& description) {
  DramConfig& config = description.config;
  DramTiming& t = config.timing;
  const double tck_ns = ini.real("timing.tCK", 1.0);
  config.organization.clock_mhz = clock_mhz_for_period(tck_ns);
  config.organization.data_rate_mtps = config.organization.clock_mhz * protocol.transfers_per_clock;
  const int64_t additive = ini.integer("timing.AL", 0);
  t.tCL = additive + ini.integer("timing.CL", 12);
  t.tWL = additive + ini.integer("timing.CWL", 12);
  t.tCCD_L = ini.integer("timing.tCCD_L", 6);
  t.tCCD_S = ini.integer("timing.tCCD_S", 4);
  // DRAMsim3's one bus idle time: read to write turnaround and rank to rank switch.
  t.tRTW_turnaround = ini.integer("timing.tRTRS", 2);
  t.tRTRS = t.tRTW_turnaround;
  t.tRTP = additive + ini.integer("timing.tRTP", 5);
  t.tWTR_L = ini.integer("timing.tWTR_L", 5);
  t.tWTR_S = ini.integer("timing.tWTR_S", 5);
  t.tWR = ini.integer("timing.tWR", 10);
  t.tRP = ini.integer("timing.tRP", 10);
  t.tRRD_L = ini.integer("timing.tRRD_L", 4);
  t.tRRD_S = ini.integer("timing.tRRD_S", 4);
  t.tRAS = ini.integer("timing.tRAS", 24);
  t.tRFC = ini.integer("timing.tRFC", 74);
  t.tREFI = ini.integer("timing.tREFI", 7800);
  t.tFAW = ini.integer("timing.tFAW", 50);
  t.tRFCb = ini.integer("timing.tRFCb", 20);  // DRAMsim3's defaults
  t.tREFIb = ini.integer("timing.tREFIb", 1950);
  // DRAMsim3 holds GDDR's ACTs to t32AW as well (channel_state.cc), 330 if not given.
  t.t32AW = protocol.gddr ? ini.integer("timing.t32AW", 330) : 0;
  // DRAMsim3 holds PREs tPPD apart for GDDR and LPDDR4 only (timing.cc).
  t.tPPD = protocol.gddr || protocol.standard == "lpddr4" ? ini.integer("timing.tPPD", 0) : 0;
  // DRAMsim3 reads no tRTP_L / tRTP_S; where a file gives them they are the device's.
  t.tRTP_L = ini.integer("timing.tRTP_L", 0);
  t.tRTP_S = ini.integer("timing.tRTP_S", 0);
  if (protocol.gddr || protocol.hbm) {
    t.tRCD = ini.integer("timing.tRCDRD", 24);
    t.tRCDWR = ini.integer("timing.tRCDWR", 20);
  } else {
    t.tRCD = ini.integer("timing.tRCD", 10) - additive;
    t.tRCDWR = -1;
  }
  if (config.organization.bank_groups == 1) {
    // DRAMsim3's Timing: with one bank group the _S values apply everywhere.
    t.tCCD_L = t.tCCD_S;
    t.tWTR_L = t.tWTR_S;
    t.tRRD_L = t.tRRD_S;
  }
}

void read_system(const IniFile& ini, DramDescription& description) {
  ControllerOptions& options = description.config.controller;
  const std::string mapping = ini.text("system.address_mapping", "chrobabgraco");
  if (mapping.size() != 12 || !looks_like_field_order(mapping) ||
      mapping.find("pc") != std::string::npos) {
    ini.fail_key(
        "system.address_mapping",
        "address_mapping '" + mapping + "' is not six two-letter fields of ch ra bg ba ro co");
  }
  try {
    validate_field_order(mapping);
  } catch (const Error& error) {
    ini.fail_key("system.address_mapping", error.message());
  }
  options.address_scheme = AddressScheme::kFieldOrder;
  options.field_order = mapping;
  const std::string policy = ini.text("system.row_buf_policy", "OPEN_PAGE");
  if (policy == "OPEN_PAGE") {
    options.page_policy = PagePolicy::kOpen;
  } else if (policy == "CLOSE_PAGE") {
    options.page_policy = PagePolicy::kClosed;
  } else {
    ini.fail_key("system.row_buf_policy",
                 "row_buf_policy '" + policy + "' is neither OPEN_PAGE nor CLOSE_PAGE");
  }
  const std::string structure = ini.text("system.queue_structure", "PER_BANK");
  if (structure != "PER_BANK" && structure != "PER_RANK") {
    ini.fail_key("system.queue_structure",
                 "queue_structure '" + structure + "' is neither PER_BANK nor PER_RANK");
  }
  const int64_t transaction_queue = ini.integer("system.trans_queue_size", 32);
  const int64_t command_queue = ini.integer("system.cmd_queue_size", 16);
  if (transaction_queue < 1 || command_queue < 1) {
    ini.fail_key(transaction_queue < 1 ? "system.trans_queue_size" : "system.cmd_queue_size",
                 "queue sizes must be at least 1");
  }
  options.queue_depth = static_cast<int>(transaction_queue);
  options.command_queue_depth = static_cast<int>(command_queue);
  options.command_queue_per_bank = structure == "PER_BANK";
  // DRAMsim3 picks the bank round-robin (open page; its closed page issues auto-precharge
  // commands, which polyarch's FR-FCFS closed-page policy stands in for).
  options.bank_round_robin = options.page_policy == PagePolicy::kOpen;
  const std::string refresh = ini.text("system.refresh_policy", "RANK_LEVEL_STAGGERED");
  if (refresh != "RANK_LEVEL_STAGGERED" && refresh != "RANK_LEVEL_SIMULTANEOUS" &&
      refresh != "BANK_LEVEL_STAGGERED") {
    ini.fail_key("system.refresh_policy", "unknown refresh_policy '" + refresh + "'");
  }
  options.refresh = true;
  options.refresh_staggered = refresh != "RANK_LEVEL_SIMULTANEOUS";
  options.refresh_per_bank = refresh == "BANK_LEVEL_STAGGERED";
}

}  // namespace

DramDescription read_dramsim3_ini(std::istream& in, const std::string& file_label) {
  const IniFile ini(in, file_label);
  const Protocol protocol = protocol_of(ini);
  DramDescription description;
  description.model = "jedec";
  description.standard = protocol.standard;
  description.config.name = file_label;
  read_structure(ini, protocol, description);
  read_timing(ini, protocol, description);
  read_system(ini, description);
  read_ranks(ini, description);
  description.unmodelled_keys = ini.unmodelled();
  description.config.validate();
  return description;
}

DramDescription read_dramsim3_ini_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) {
    SourceLocation where;
    where.file = path.string();
    throw_bad_input(where, "cannot open the DRAMsim3 configuration");
  }
  return read_dramsim3_ini(in, path.string());
}

}  // namespace polyarch::sim::dram
