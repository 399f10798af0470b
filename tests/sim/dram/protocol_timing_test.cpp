// Timings only some standards have (tPPD, tRTP_L/tRTP_S, per-bank refresh), derived by hand
// on DDR4-3200 numbers with the protocol timing added: tRCD 22, tRP 22, tRAS 52, tRTP 12,
// CL 22, tBL 4, tRRD_S 4, tCCD_S 4.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "sim/memory/dram/checker.h"
#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

DramConfig ddr4_with(const std::function<void(DramConfig&)>& change) {
  DramConfig config = ddr4_3200();
  config.controller.address_scheme = AddressScheme::kRowBankCol;
  change(config);
  return config;
}

// Reads A and B open row 0 of bank 0 in bank groups 0 and 1, then C and D want row 1 of the
// same banks. ACT A 0, ACT B 4 (tRRD_S), RD A 22, RD B 26; PRE A at tRAS = 52, PRE B at
// 4 + 52 = 56; ACT C 74, ACT D 78; RD C 96, RD D 100, its data done at 126.
std::vector<Command> conflict_pairs(const DramConfig& config, int64_t& last_done) {
  DramSystem system(config);
  const AddressMapping& mapping = system.mapping();
  int64_t last = 0;
  for (int64_t row : {0, 1}) {
    for (int group : {0, 1}) {
      last =
          system.enqueue({.addr = mapping.encode({.bank_group = group, .row = row}), .bytes = 64});
    }
  }
  system.run();
  last_done = system.completion_cycle(last);
  const auto violation = check_command_stream(config, system.commands(0, 0));
  EXPECT_FALSE(violation.has_value()) << violation->message;
  return system.commands(0, 0);
}

std::vector<int64_t> cycles_of(const std::vector<Command>& commands, CommandKind kind) {
  std::vector<int64_t> cycles;
  for (const Command& command : commands) {
    if (command.kind == kind) cycles.push_back(command.cycle);
  }
  return cycles;
}

TEST(ProtocolTimings, ConflictPairsWithoutProtocolTimings) {
  int64_t done = 0;
  const auto commands = conflict_pairs(ddr4_with([](DramConfig&) {}), done);
  EXPECT_EQ(cycles_of(commands, CommandKind::kPrecharge), (std::vector<int64_t>{52, 56}));
  EXPECT_EQ(done, 126);
}

// tPPD 8: PRE B waits until 52 + 8 = 60, ACT D 82, RD D 104, done 130.
TEST(ProtocolTimings, TppdSpacesPrechargesOfARank) {
  int64_t done = 0;
  const auto commands = conflict_pairs(ddr4_with([](DramConfig& c) { c.timing.tPPD = 8; }), done);
  EXPECT_EQ(cycles_of(commands, CommandKind::kPrecharge), (std::vector<int64_t>{52, 60}));
  EXPECT_EQ(done, 130);
}

// tRTP_L 40, tRTP_S 30: PRE A waits for RD A + 40 = 62 (RD B + 30 = 56 is earlier), PRE B for
// RD B + 40 = 66; ACT C 84, ACT D 88, RD C 106, RD D 110, done 136.
TEST(ProtocolTimings, TrtpLongAndShortHoldPrechargesAfterReads) {
  int64_t done = 0;
  const auto commands = conflict_pairs(ddr4_with([](DramConfig& c) {
                                         c.timing.tRTP_L = 40;
                                         c.timing.tRTP_S = 30;
                                       }),
                                       done);
  EXPECT_EQ(cycles_of(commands, CommandKind::kPrecharge), (std::vector<int64_t>{62, 66}));
  EXPECT_EQ(done, 136);
  // tRTP_S alone counts from the other bank group's read: with tRTP_L 40 and tRTP_S 40, PRE A
  // waits for RD B + 40 = 66 and PRE B for 66 too, one command-bus cycle later.
  const auto both = conflict_pairs(ddr4_with([](DramConfig& c) {
                                     c.timing.tRTP_L = 40;
                                     c.timing.tRTP_S = 40;
                                   }),
                                   done);
  EXPECT_EQ(cycles_of(both, CommandKind::kPrecharge), (std::vector<int64_t>{66, 67}));
}

DramConfig per_bank_refresh() {
  return ddr4_with([](DramConfig& c) {
    c.controller.refresh_per_bank = true;
    c.timing.tRFCb = 100;
    c.timing.tREFIb = 1000;
  });
}

// One bank every tREFIb = 1000, bank groups first: (bg0, ba0) at 1000, (bg1, ba0) at 2000,
// (bg2, ba0) at 3000, (bg3, ba0) at 4000. A read of bank (bg1, ba0) at 1500 leaves its row
// open (ACT 1500, RD 1522): at 2000 the bank is precharged (tRAS and tRTP long past) and
// refreshed tRP = 22 later, at 2022.
TEST(ProtocolTimings, PerBankRefreshVisitsTheBanksInTurn) {
  const DramConfig config = per_bank_refresh();
  DramSystem system(config);
  const AddressMapping& mapping = system.mapping();
  system.enqueue({.addr = mapping.encode({.bank_group = 1}), .bytes = 64, .arrival_cycle = 1500});
  system.enqueue(
      {.addr = mapping.encode({.bank_group = 2, .row = 5}), .bytes = 64, .arrival_cycle = 4500});
  system.run();
  std::vector<std::pair<int, int64_t>> refreshes;
  for (const Command& command : system.commands(0, 0)) {
    if (command.kind == CommandKind::kRefreshBank) {
      EXPECT_EQ(command.bank, 0);
      refreshes.push_back({command.bank_group, command.cycle});
    }
    EXPECT_NE(command.kind, CommandKind::kRefresh);
  }
  const std::vector<std::pair<int, int64_t>> expected = {
      {0, 1000}, {1, 2022}, {2, 3000}, {3, 4000}};
  EXPECT_EQ(refreshes, expected);
  EXPECT_FALSE(check_command_stream(config, system.commands(0, 0)).has_value());
}

// While bank (bg0, ba0) refreshes from 1000 for tRFCb = 100, a read of another bank arriving
// at 1000 goes on (ACT 1001, RD 1023, done 1049); one of the refreshing bank waits for it
// (ACT 1100, RD 1122, done 1148).
TEST(ProtocolTimings, PerBankRefreshHoldsOnlyItsBank) {
  for (int group : {0, 1}) {
    DramSystem system(per_bank_refresh());
    const int64_t id = system.enqueue({.addr = system.mapping().encode({.bank_group = group}),
                                       .bytes = 64,
                                       .arrival_cycle = 1000});
    system.run();
    EXPECT_EQ(system.completion_cycle(id), group == 0 ? 1148 : 1049) << group;
  }
}

}  // namespace
}  // namespace polyarch::sim::dram
