#include "sim/memory/dram/dram_yaml.h"

#include <gtest/gtest.h>

#include <string>

#include "base/config_tree.h"
#include "sim/memory/dram/presets.h"
#include "tests/support/bad_input.h"

namespace polyarch::sim::dram {
namespace {

DramDescription parse(const std::string& yaml) {
  const ConfigNode root = parse_config_text(yaml, "d.yaml");
  return read_dram_map(*root.find("dram"));
}

std::string error_of(const std::string& yaml) {
  return test_support::bad_input_message([&] { parse(yaml); }, yaml);
}

TEST(DramYaml, KeysOverrideThePresetAndTheRestIsThePresets) {
  const DramDescription d = parse(
      "dram:\n"
      "  model: simple\n"
      "  preset: ddr4_3200\n"
      "  organization: {rows: 32768, ranks: 1}\n"
      "  timing: {CL: 24, tRCDWR: 18, tCK_ns: 0.75}\n"
      "  controller: {address_mapping: chrobabgraco, page_policy: closed}\n");
  const DramConfig preset_config = ddr4_3200();
  EXPECT_EQ(d.model, "simple");
  EXPECT_EQ(d.standard, "ddr4");
  EXPECT_EQ(d.config.organization.rows, 32768);
  EXPECT_EQ(d.config.organization.bank_groups, preset_config.organization.bank_groups);
  EXPECT_EQ(d.config.timing.tCL, 24);
  EXPECT_EQ(d.config.timing.tRCD, preset_config.timing.tRCD);
  EXPECT_EQ(d.config.timing.activate_to_write(), 18);
  // 0.75 ns is 1333 MHz; DDR keeps two transfers per clock.
  EXPECT_EQ(d.config.organization.clock_mhz, 1333);
  EXPECT_EQ(d.config.organization.data_rate_mtps, 2666);
  EXPECT_EQ(d.config.controller.address_scheme, AddressScheme::kFieldOrder);
  EXPECT_EQ(d.config.controller.field_order, "chrobabgraco");
  EXPECT_EQ(d.config.controller.page_policy, PagePolicy::kClosed);
  EXPECT_EQ(d.config.controller.queue_depth, preset_config.controller.queue_depth);
  EXPECT_EQ(d.config.controller.command_queue_depth, 0);
}

TEST(DramYaml, AStandardAloneStartsFromItsPreset) {
  const DramDescription d = parse("dram: {standard: hbm3}\n");
  EXPECT_EQ(d.config.name, "hbm3_6400");
  EXPECT_EQ(d.config.organization.pseudo_channels, 2);
}

TEST(DramYaml, QueueSizesSetTheControllerWindow) {
  const DramDescription d = parse(
      "dram:\n  preset: ddr4_3200\n"
      "  controller: {transaction_queue: 16, command_queue: 4, queue_structure: per_bank,\n"
      "               scheduler: bank_round_robin}\n");
  EXPECT_EQ(d.config.controller.queue_depth, 16);
  EXPECT_EQ(d.config.controller.command_queue_depth, 4);
  EXPECT_TRUE(d.config.controller.command_queue_per_bank);
  EXPECT_TRUE(d.config.controller.bank_round_robin);
}

TEST(DramYaml, MisspeltKeysGetASuggestionWithFileAndLine) {
  const std::string message = error_of("dram:\n  preset: ddr4_3200\n  timing:\n    tRCDD: 20\n");
  EXPECT_NE(message.find("d.yaml:4"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'tRCD'"), std::string::npos) << message;
}

TEST(DramYaml, RanksRefreshAndRankSwitchAreKeys) {
  const DramDescription d = parse(
      "dram:\n  preset: ddr4_3200\n  organization: {ranks: 2}\n"
      "  timing: {tRTRS: 3}\n  controller: {refresh: rank_simultaneous}\n");
  EXPECT_EQ(d.config.organization.ranks, 2);
  EXPECT_EQ(d.config.capacity_bytes(), 2 * ddr4_3200().capacity_bytes());
  EXPECT_EQ(d.config.timing.tRTRS, 3);
  EXPECT_EQ(d.config.timing.tRTW_turnaround, 3);
  EXPECT_FALSE(d.config.controller.refresh_staggered);
  const std::string message = error_of("dram:\n  preset: ddr4_3200\n  organization: {ranks: 3}\n");
  EXPECT_NE(message.find("ranks"), std::string::npos) << message;
  // 8 x 16 = 128 banks in a rank: more than any JEDEC part has.
  const std::string banks = error_of(
      "dram:\n  preset: ddr4_3200\n  organization: {bank_groups: 8, banks_per_group: 16}\n");
  EXPECT_NE(banks.find("banks_per_group"), std::string::npos) << banks;
  EXPECT_NE(banks.find("got 128"), std::string::npos) << banks;
  EXPECT_NE(message.find("power of two"), std::string::npos) << message;
}

TEST(DramYaml, HbmStandardsIssueRowAndColumnCommandsTogether) {
  EXPECT_TRUE(parse("dram: {standard: hbm3}\n").config.organization.dual_command_issue);
  EXPECT_TRUE(parse("dram: {preset: hbm2e_3200}\n").config.organization.dual_command_issue);
  EXPECT_FALSE(parse("dram: {preset: ddr4_3200}\n").config.organization.dual_command_issue);
  EXPECT_FALSE(parse("dram: {standard: gddr6}\n").config.organization.dual_command_issue);
  // A standard without a preset, described key by key: HBM2 has the two buses, DDR5 not.
  const std::string keys =
      "  organization: {channels: 8, pseudo_channels: 2, bank_groups: 4, banks_per_group: 4,\n"
      "                 rows: 16384, columns: 128, device_width: 128, bus_width: 128,\n"
      "                 burst_length: 4, transfers_per_clock: 2}\n"
      "  timing: {tCK_ns: 1.0, CL: 14, CWL: 4, tRCD: 14, tRP: 14, tRAS: 34, tRFC: 260,\n"
      "           tREFI: 3900, tRRD_S: 4, tRRD_L: 6, tFAW: 30, tCCD_S: 1, tCCD_L: 2, tWR: 16,\n"
      "           tWTR_S: 6, tWTR_L: 8, tRTP: 5, tRTRS: 1}\n";
  EXPECT_TRUE(parse("dram:\n  standard: hbm2\n" + keys).config.organization.dual_command_issue);
  EXPECT_FALSE(parse("dram:\n  standard: ddr5\n" + keys).config.organization.dual_command_issue);
}

TEST(DramYaml, ContradictionsAndMissingKeysAreBadInput) {
  EXPECT_NE(error_of("dram: {standard: hbm3, preset: ddr4_3200}\n").find("contradicts"),
            std::string::npos);
  EXPECT_NE(error_of("dram: {preset: ddr4_3200, controller: {scheduler: bank_round_robin, "
                     "page_policy: closed}}\n")
                .find("page_policy open"),
            std::string::npos);
  const std::string missing = error_of("dram: {standard: ddr5}\n");
  EXPECT_NE(missing.find("timing.tRCD"), std::string::npos) << missing;
  EXPECT_NE(error_of("dram: {preset: ddr4_3200, controller: {address_mapping: rochrababgxx}}\n")
                .find("address mapping"),
            std::string::npos);
}

}  // namespace
}  // namespace polyarch::sim::dram
