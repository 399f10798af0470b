#include "sim/memory/dram/config.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "base/error.h"

namespace polyarch::sim::dram {
namespace {

constexpr std::array<std::pair<PagePolicy, std::string_view>, 2> kPagePolicyNames = {{
    {PagePolicy::kOpen, "open"},
    {PagePolicy::kClosed, "closed"},
}};

constexpr std::array<std::pair<AddressScheme, std::string_view>, 5> kSchemeNames = {{
    {AddressScheme::kRowBankCol, "row_bank_col"},
    {AddressScheme::kRowColBank, "row_col_bank"},
    {AddressScheme::kBankInterleaved, "bank_interleaved"},
    {AddressScheme::kPermutedBank, "permuted_bank"},
    {AddressScheme::kFieldOrder, "field_order"},
}};

constexpr std::array<std::string_view, 7> kFieldNames = {"ro", "ch", "ra", "bg", "ba", "co", "pc"};

bool is_power_of_two(int64_t value) { return value > 0 && (value & (value - 1)) == 0; }

[[noreturn]] void invalid(const DramConfig& config, const std::string& field,
                          const std::string& message) {
  throw_bad_input(config_key("dram." + field),
                  "DRAM configuration '" + config.name + "': " + message);
}

void require_power_of_two(const DramConfig& config, const std::string& field, int64_t value) {
  if (!is_power_of_two(value)) {
    invalid(config, field,
            field + " must be a positive power of two, got " + std::to_string(value));
  }
}

void require_at_least(const DramConfig& config, const std::string& field, int64_t value,
                      int64_t minimum) {
  if (value < minimum) {
    invalid(
        config, field,
        field + " must be at least " + std::to_string(minimum) + ", got " + std::to_string(value));
  }
}

void validate_organization(const DramConfig& config) {
  const DramOrganization& org = config.organization;
  require_power_of_two(config, "channels", org.channels);
  require_power_of_two(config, "pseudo_channels", org.pseudo_channels);
  require_power_of_two(config, "ranks", org.ranks);
  if (org.ranks > 32) invalid(config, "ranks", "at most 32 ranks per channel are modelled");
  require_power_of_two(config, "bank_groups", org.bank_groups);
  require_power_of_two(config, "banks_per_group", org.banks_per_group);
  if (int64_t{org.bank_groups} * org.banks_per_group > kMaxBanksPerRank) {
    // No JEDEC part has more (HBM3: 16 bank groups of 4); a rank's open banks are one 64-bit set.
    invalid(config, "banks_per_group",
            "at most 64 banks per rank (bank_groups x banks_per_group) are modelled, got " +
                std::to_string(int64_t{org.bank_groups} * org.banks_per_group));
  }
  require_power_of_two(config, "rows", org.rows);
  require_power_of_two(config, "columns", org.columns);
  require_power_of_two(config, "burst_length", org.burst_length);
  require_at_least(config, "data_rate_mtps", org.data_rate_mtps, 1);
  require_at_least(config, "clock_mhz", org.clock_mhz, 1);
  if (org.columns < org.burst_length) {
    invalid(config, "columns", "a row must hold at least one burst (columns >= burst_length)");
  }
  if (org.channel_width_bits <= 0 || org.channel_width_bits % (8 * org.pseudo_channels) != 0) {
    invalid(config, "channel_width_bits",
            "channel_width_bits must split into whole bytes per pseudo-channel, got " +
                std::to_string(org.channel_width_bits));
  }
  if (org.data_rate_mtps % org.clock_mhz != 0) {
    invalid(config, "data_rate_mtps", "the data rate must be a whole multiple of the clock");
  }
  if (org.burst_length % config.transfers_per_clock() != 0) {
    invalid(config, "burst_length",
            "a burst must last whole clock cycles (burst_length divisible by data_rate/clock)");
  }
}

void validate_timing(const DramConfig& config) {
  const DramTiming& t = config.timing;
  const std::array<std::pair<std::string_view, int64_t>, 14> at_least_one = {{
      {"tRCD", t.tRCD},
      {"tRP", t.tRP},
      {"tRAS", t.tRAS},
      {"tCL", t.tCL},
      {"tWL", t.tWL},
      {"tCCD_S", t.tCCD_S},
      {"tCCD_L", t.tCCD_L},
      {"tRRD_S", t.tRRD_S},
      {"tRRD_L", t.tRRD_L},
      {"tFAW", t.tFAW},
      {"tRTP", t.tRTP},
      {"tREFI", t.tREFI},
      {"tRFC", t.tRFC},
      {"max_postponed_refreshes", t.max_postponed_refreshes + 1},
  }};
  for (const auto& [name, value] : at_least_one)
    require_at_least(config, std::string(name), value, 1);
  require_at_least(config, "tWR", t.tWR, 0);
  require_at_least(config, "tWTR_S", t.tWTR_S, 0);
  require_at_least(config, "tWTR_L", t.tWTR_L, 0);
  require_at_least(config, "tRTW_turnaround", t.tRTW_turnaround, 0);
  require_at_least(config, "tRTRS", t.tRTRS, 0);
  if (t.tCCD_L < t.tCCD_S) invalid(config, "tCCD_L", "tCCD_L must be at least tCCD_S");
  if (t.tRRD_L < t.tRRD_S) invalid(config, "tRRD_L", "tRRD_L must be at least tRRD_S");
  if (t.tWTR_L < t.tWTR_S) invalid(config, "tWTR_L", "tWTR_L must be at least tWTR_S");
  if (t.tRAS < t.tRCD) invalid(config, "tRAS", "tRAS must be at least tRCD");
  if (t.tREFI <= t.tRFC) invalid(config, "tREFI", "tREFI must exceed tRFC");
  if (t.tRCDWR != -1) require_at_least(config, "tRCDWR", t.tRCDWR, 1);
  require_at_least(config, "t32AW", t.t32AW, 0);
  require_at_least(config, "tPPD", t.tPPD, 0);
  require_at_least(config, "tRFCb", t.tRFCb, 0);
  require_at_least(config, "tREFIb", t.tREFIb, 0);
  if (config.controller.refresh_per_bank && (t.tRFCb < 1 || t.tREFIb <= t.tRFCb)) {
    invalid(config, "tREFIb",
            "per-bank refresh needs tRFCb of at least 1 and tREFIb above it, got tRFCb " +
                std::to_string(t.tRFCb) + " and tREFIb " + std::to_string(t.tREFIb));
  }
  require_at_least(config, "tRTP_S", t.tRTP_S, 0);
  if (t.tRTP_L < t.tRTP_S) invalid(config, "tRTP_L", "tRTP_L must be at least tRTP_S");
}

}  // namespace

SourceLocation config_key(std::string key_path) {
  SourceLocation where;
  where.key_path = std::move(key_path);
  return where;
}

std::string_view page_policy_name(PagePolicy policy) {
  for (const auto& [value, name] : kPagePolicyNames) {
    if (value == policy) return name;
  }
  return "?";
}

std::string_view address_scheme_name(AddressScheme scheme) {
  for (const auto& [value, name] : kSchemeNames) {
    if (value == scheme) return name;
  }
  return "?";
}

PagePolicy parse_page_policy(std::string_view name) {
  for (const auto& [value, known] : kPagePolicyNames) {
    if (known == name) return value;
  }
  throw_bad_input(config_key("dram.page_policy"),
                  "unknown page policy '" + std::string(name) + "' (expected open or closed)");
}

AddressScheme parse_address_scheme(std::string_view name) {
  for (const auto& [value, known] : kSchemeNames) {
    if (known == name) return value;
  }
  throw_bad_input(config_key("dram.address_scheme"),
                  "unknown address scheme '" + std::string(name) +
                      "' (expected row_bank_col, row_col_bank, bank_interleaved or permuted_bank)");
}

bool looks_like_field_order(std::string_view text) {
  if (text.empty() || text.size() % 2 != 0) return false;
  for (size_t i = 0; i < text.size(); i += 2) {
    if (std::find(kFieldNames.begin(), kFieldNames.end(), text.substr(i, 2)) == kFieldNames.end())
      return false;
  }
  return true;
}

void validate_field_order(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    throw_bad_input(config_key("dram.controller.address_mapping"),
                    "address mapping '" + std::string(text) + "': " + why +
                        " (two-letter fields, most significant first: each of ro ch ra bg ba co "
                        "once, pc at most once, e.g. rochrababgco)");
  };
  if (text.size() % 2 != 0) bad("the fields are two letters each");
  for (std::string_view field : kFieldNames) {
    int count = 0;
    for (size_t i = 0; i < text.size(); i += 2) count += text.substr(i, 2) == field ? 1 : 0;
    if (count > 1) bad("field '" + std::string(field) + "' appears more than once");
    if (count == 0 && field != "pc") bad("field '" + std::string(field) + "' is missing");
  }
  for (size_t i = 0; i < text.size(); i += 2) {
    if (std::find(kFieldNames.begin(), kFieldNames.end(), text.substr(i, 2)) == kFieldNames.end())
      bad("unknown field '" + std::string(text.substr(i, 2)) + "'");
  }
}

int64_t DramConfig::transfers_per_clock() const {
  return organization.data_rate_mtps / organization.clock_mhz;
}

int64_t DramConfig::burst_cycles() const {
  return organization.burst_length / transfers_per_clock();
}

int DramConfig::pseudo_channel_width_bits() const {
  return organization.channel_width_bits / organization.pseudo_channels;
}

int64_t DramConfig::bytes_per_burst() const {
  return int64_t{organization.burst_length} * pseudo_channel_width_bits() / 8;
}

int64_t DramConfig::bursts_per_row() const {
  return organization.columns / organization.burst_length;
}

int64_t DramConfig::row_bytes() const { return bursts_per_row() * bytes_per_burst(); }

int DramConfig::banks_per_pseudo_channel() const {
  return organization.bank_groups * organization.banks_per_group;
}

int DramConfig::pseudo_channel_count() const {
  return organization.channels * organization.pseudo_channels;
}

int64_t DramConfig::capacity_bytes() const {
  return int64_t{pseudo_channel_count()} * organization.ranks * banks_per_pseudo_channel() *
         organization.rows * row_bytes();
}

double DramConfig::peak_bandwidth_gbps_per_channel() const {
  // bits x 10^6 transfers/s / 8 bits per byte / 10^9 = GB/s.
  return static_cast<double>(organization.channel_width_bits) *
         static_cast<double>(organization.data_rate_mtps) / 8.0 / 1000.0;
}

double DramConfig::peak_bandwidth_gbps() const {
  return peak_bandwidth_gbps_per_channel() * organization.channels;
}

double DramConfig::clock_period_ns() const {
  return 1000.0 / static_cast<double>(organization.clock_mhz);
}

void DramConfig::validate() const {
  validate_organization(*this);
  validate_timing(*this);
  if (controller.queue_depth < 1) {
    invalid(*this, "queue_depth", "queue_depth must be at least 1");
  }
  if (controller.command_queue_depth < 0) {
    invalid(*this, "command_queue", "command_queue must be at least 0");
  }
  if (controller.bank_round_robin && controller.page_policy != PagePolicy::kOpen) {
    invalid(*this, "scheduler",
            "the bank round-robin scheduler keeps rows open (page_policy open)");
  }
  if (controller.address_scheme == AddressScheme::kFieldOrder) {
    validate_field_order(controller.field_order);
  }
}

}  // namespace polyarch::sim::dram
