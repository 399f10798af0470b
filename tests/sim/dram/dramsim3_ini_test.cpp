#include "sim/memory/dram/dramsim3_ini.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/support/bad_input.h"

namespace polyarch::sim::dram {
namespace {

// DRAMsim3's DDR4_8Gb_x8_3200.ini with channel_size halved to one rank, its [power] section
// cut to two currents, an inline comment and a comment line.
constexpr const char* kDdr4Ini = R"([dram_structure]
protocol = DDR4
bankgroups = 4
banks_per_group = 4
rows = 65536
columns = 1024
device_width = 8
BL = 8

[timing]
; DDR4-3200AA
tCK = 0.63
AL = 0
CL = 22
CWL = 16
tRCD = 22
tRP = 22
tRAS = 52
tRFC = 560
tREFI = 12480
tRRD_S = 4
tRRD_L = 8
tWTR_S = 4
tWTR_L = 12
tFAW = 34
tWR = 24
tRTP = 12
tCCD_S = 4
tCCD_L = 8
tCKE = 8
tXP = 10
tRTRS = 1 ; rank to rank

[power]
VDD = 1.2
IDD0 = 57

[system]
channel_size = 8192
channels = 1
bus_width = 64
address_mapping = rochrababgco
queue_structure = PER_BANK
refresh_policy = RANK_LEVEL_STAGGERED
row_buf_policy = OPEN_PAGE
cmd_queue_size = 8
trans_queue_size = 32

[other]
epoch_period = 1587301
)";

DramDescription parse(const std::string& text) {
  std::istringstream in(text);
  return read_dramsim3_ini(in, "d.ini");
}

std::string error_of(const std::string& text) {
  return test_support::bad_input_message([&] { parse(text); }, text);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(DramSim3Ini, ReadsDdr4AsDramSim3InterpretsIt) {
  const DramDescription d = parse(kDdr4Ini);
  const DramConfig& c = d.config;
  EXPECT_EQ(d.standard, "ddr4");
  EXPECT_EQ(c.organization.bank_groups, 4);
  EXPECT_EQ(c.organization.banks_per_group, 4);
  EXPECT_EQ(c.organization.columns, 1024);
  EXPECT_EQ(c.organization.channel_width_bits, 64);
  EXPECT_EQ(c.organization.clock_mhz, 1587);  // 1000 / 0.63 ns, rounded
  EXPECT_EQ(c.transfers_per_clock(), 2);
  EXPECT_EQ(c.burst_cycles(), 4);      // BL8 at DDR
  EXPECT_EQ(c.bytes_per_burst(), 64);  // DRAMsim3's request size: bus_width / 8 x BL
  EXPECT_EQ(c.timing.tCL, 22);
  EXPECT_EQ(c.timing.tWL, 16);
  EXPECT_EQ(c.timing.tRTW_turnaround, 1);
  EXPECT_EQ(c.timing.activate_to_write(), 22);
  EXPECT_EQ(c.controller.field_order, "rochrababgco");
  // A transaction queue of 32 feeding per-bank command queues of 8.
  EXPECT_EQ(c.controller.queue_depth, 32);
  EXPECT_EQ(c.controller.command_queue_depth, 8);
  EXPECT_TRUE(c.controller.command_queue_per_bank);
  EXPECT_TRUE(c.controller.bank_round_robin);
  EXPECT_EQ(c.timing.t32AW, 0);  // not a GDDR
  EXPECT_EQ(c.capacity_bytes(), int64_t{8192} << 20);
}

TEST(DramSim3Ini, ListsEveryUnmodelledKeyInFileOrder) {
  const DramDescription d = parse(kDdr4Ini);
  const std::vector<std::string> expected = {"timing.tCKE", "timing.tXP", "power.VDD", "power.IDD0",
                                             "other.epoch_period"};
  EXPECT_EQ(d.unmodelled_keys, expected);
  const std::string note = unmodelled_note("d.ini", d.unmodelled_keys);
  EXPECT_NE(note.find("timing.tCKE, timing.tXP, power.VDD"), std::string::npos) << note;
}

TEST(DramSim3Ini, GddrColumnsCountBeatsAndUseTrcdrdAndTrcdwr) {
  std::string text = replaced(kDdr4Ini, "protocol = DDR4", "protocol = GDDR6");
  text = replaced(text, "columns = 1024", "columns = 128");
  text = replaced(text, "BL = 8", "BL = 16\nbankgroup_enable = false");
  text = replaced(text, "tRCD = 22", "tRCDRD = 24\ntRCDWR = 20");
  text = replaced(text, "channel_size = 8192", "channel_size = 1024");
  const DramConfig c = parse(text).config;
  EXPECT_EQ(c.organization.columns, 128 * 16);
  EXPECT_EQ(c.transfers_per_clock(), 16);  // DRAMsim3's GDDR6 burst: BL / 16 cycles
  EXPECT_EQ(c.burst_cycles(), 1);
  EXPECT_EQ(c.timing.tRCD, 24);
  EXPECT_EQ(c.timing.activate_to_write(), 20);
  EXPECT_EQ(c.timing.t32AW, 330);  // DRAMsim3's default for GDDR
  // One bank group of 16 banks: the _L timings are the _S ones.
  EXPECT_EQ(c.organization.bank_groups, 1);
  EXPECT_EQ(c.organization.banks_per_group, 16);
  EXPECT_EQ(c.timing.tCCD_L, 4);
  EXPECT_EQ(c.timing.tRRD_L, 4);
  EXPECT_EQ(c.timing.tWTR_L, 4);
}

TEST(DramSim3Ini, ProtocolTimingsAndPerBankRefreshAreRead) {
  std::string text = replaced(kDdr4Ini, "protocol = DDR4", "protocol = LPDDR4");
  text = replaced(text, "tCCD_L = 8",
                  "tCCD_L = 8\ntPPD = 2\ntRTP_L = 6\ntRTP_S = 4\ntRFCb = 90\n"
                  "tREFIb = 400");
  text = replaced(text, "RANK_LEVEL_STAGGERED", "BANK_LEVEL_STAGGERED");
  const DramConfig c = parse(text).config;
  EXPECT_EQ(c.timing.tPPD, 2);
  EXPECT_EQ(c.timing.tRTP_L, 6);
  EXPECT_EQ(c.timing.tRTP_S, 4);
  EXPECT_EQ(c.timing.tRFCb, 90);
  EXPECT_EQ(c.timing.tREFIb, 400);
  EXPECT_TRUE(c.controller.refresh_per_bank);
  // DRAMsim3 applies tPPD to GDDR and LPDDR4 only.
  EXPECT_EQ(parse(replaced(text, "protocol = LPDDR4", "protocol = DDR4")).config.timing.tPPD, 0);
}

TEST(DramSim3Ini, HbmIssuesRowAndColumnCommandsTogetherUnlessTheFileSaysNot) {
  EXPECT_FALSE(parse(kDdr4Ini).config.organization.dual_command_issue);
  const std::string hbm = replaced(kDdr4Ini, "protocol = DDR4", "protocol = HBM2");
  EXPECT_TRUE(parse(hbm).config.organization.dual_command_issue);
  EXPECT_FALSE(parse(replaced(hbm, "BL = 8", "BL = 8\nhbm_dual_cmd = false"))
                   .config.organization.dual_command_issue);
  // DRAMsim3 ignores the key outside HBM, and so does polyarch.
  EXPECT_FALSE(parse(replaced(kDdr4Ini, "BL = 8", "BL = 8\nhbm_dual_cmd = true"))
                   .config.organization.dual_command_issue);
}

TEST(DramSim3Ini, UnknownKeyNamesFileLineAndSection) {
  const std::string message = error_of(replaced(kDdr4Ini, "tRP = 22", "tRPP = 22"));
  EXPECT_NE(message.find("d.ini:17"), std::string::npos) << message;
  EXPECT_NE(message.find("tRPP"), std::string::npos) << message;
  EXPECT_NE(message.find("[timing]"), std::string::npos) << message;
}

TEST(DramSim3Ini, ChannelSizeCountsRanksAsDramsim3Does) {
  // DRAMsim3's own file: 16384 MB of 8192 MB ranks (65536 rows x 1 KiB pages x 16 banks x 8
  // devices = 8 GiB per rank) is two ranks; 32768 MB four; a channel smaller than a rank one.
  const DramConfig two =
      parse(replaced(kDdr4Ini, "channel_size = 8192", "channel_size = 16384")).config;
  EXPECT_EQ(two.organization.ranks, 2);
  EXPECT_EQ(two.capacity_bytes(), int64_t{16384} << 20);
  EXPECT_EQ(two.timing.tRTRS, 1);  // the file's "rank to rank"
  EXPECT_TRUE(two.controller.refresh_staggered);
  EXPECT_EQ(parse(replaced(kDdr4Ini, "channel_size = 8192", "channel_size = 32768"))
                .config.organization.ranks,
            4);
  EXPECT_EQ(parse(replaced(kDdr4Ini, "channel_size = 8192", "channel_size = 4096"))
                .config.organization.ranks,
            1);
  const std::string simultaneous =
      replaced(replaced(kDdr4Ini, "channel_size = 8192", "channel_size = 16384"),
               "RANK_LEVEL_STAGGERED", "RANK_LEVEL_SIMULTANEOUS");
  EXPECT_FALSE(parse(simultaneous).config.controller.refresh_staggered);
  // Three ranks do not split the address into bit fields.
  const std::string message =
      error_of(replaced(kDdr4Ini, "channel_size = 8192", "channel_size = 24576"));
  EXPECT_NE(message.find("3 ranks"), std::string::npos) << message;
  EXPECT_NE(message.find("channel_size"), std::string::npos) << message;
}

TEST(DramSim3Ini, BadValuesNameTheirKey) {
  EXPECT_NE(error_of(replaced(kDdr4Ini, "CL = 22", "CL = fast")).find("CL"), std::string::npos);
  EXPECT_NE(error_of(replaced(kDdr4Ini, "rochrababgco", "rochrababgbg")).find("address_mapping"),
            std::string::npos);
  EXPECT_NE(error_of(replaced(kDdr4Ini, "protocol = DDR4", "protocol = HMC")).find("HMC"),
            std::string::npos);
  EXPECT_NE(error_of(replaced(kDdr4Ini, "RANK_LEVEL_STAGGERED", "BANK_LEVEL_SOMETIMES"))
                .find("refresh_policy"),
            std::string::npos);
}

}  // namespace
}  // namespace polyarch::sim::dram
