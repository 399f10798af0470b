// Several ranks behind one controller, derived by hand on DDR4-3200 (tCK 0.625 ns): tRCD 22,
// CL 22, CWL 16, tBL 4 (BL8 at two transfers per clock), tCCD_S 4, tRRD_S 4, tRRD_L 8,
// tWTR_S 4, tRTRS 2, tREFI 12480, tRFC 560.
#include <gtest/gtest.h>

#include <vector>

#include "sim/memory/dram/address_mapping.h"
#include "sim/memory/dram/checker.h"
#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

DramConfig two_ranks() {
  DramConfig config = ddr4_3200();
  config.name = "ddr4_3200 two ranks";
  config.organization.ranks = 2;
  config.controller.address_scheme = AddressScheme::kRowBankCol;
  return config;
}

std::vector<Command> of_kind(const std::vector<Command>& commands, CommandKind kind) {
  std::vector<Command> found;
  for (const Command& command : commands) {
    if (command.kind == kind) found.push_back(command);
  }
  return found;
}

TEST(DramRanks, RankFieldSitsAboveTheBanks) {
  // row | rank | bank | bank group | column: 64-byte bursts (6 bits), 128 bursts a row
  // (7 bits), 4 bank groups and 4 banks (2 bits each): the rank is bit 17, the row bit 18.
  const AddressMapping named(two_ranks());
  EXPECT_EQ(named.decode(int64_t{1} << 17), (DramAddress{.rank = 1}));
  EXPECT_EQ(named.decode(int64_t{1} << 18), (DramAddress{.row = 1}));
  // DRAMsim3's rochrababgco: ro ch ra ba bg co, the same bit positions with one channel.
  DramConfig config = two_ranks();
  config.controller.address_scheme = AddressScheme::kFieldOrder;
  config.controller.field_order = "rochrababgco";
  const AddressMapping fields(config);
  EXPECT_EQ(fields.decode(int64_t{1} << 17), (DramAddress{.rank = 1}));
  EXPECT_EQ(fields.encode(DramAddress{.rank = 1, .row = 3}), (int64_t{3} << 18) | (1 << 17));
  EXPECT_EQ(config.capacity_bytes(), 2 * ddr4_3200().capacity_bytes());
}

// Reads to the same bank of both ranks, arriving together: ACT rank 0 at 0; rank 1's ACT is
// not held by tRRD (another rank's), so it goes at 1 (the command bus). RD rank 0 at tRCD = 22;
// rank 1's bank is ready at 1 + 22 = 23, but the data bus needs tBL + tRTRS = 6 after the
// rank 0 read: RD at 28, data done at 28 + 22 + 4 = 54.
TEST(DramRanks, ReadsOfTwoRanksAreTrtrsApartOnTheBus) {
  DramSystem system(two_ranks());
  const AddressMapping& mapping = system.mapping();
  system.enqueue({.addr = mapping.encode({.rank = 0}), .bytes = 64, .arrival_cycle = 0});
  const int64_t second =
      system.enqueue({.addr = mapping.encode({.rank = 1}), .bytes = 64, .arrival_cycle = 0});
  system.run();
  const std::vector<Command>& commands = system.commands(0, 0);
  const std::vector<Command> activates = of_kind(commands, CommandKind::kActivate);
  const std::vector<Command> reads = of_kind(commands, CommandKind::kRead);
  ASSERT_EQ(activates.size(), 2u);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_EQ(activates[1].cycle, 1);
  EXPECT_EQ(activates[1].rank, 1);
  EXPECT_EQ(reads[0].cycle, 22);
  EXPECT_EQ(reads[1].cycle, 28);
  EXPECT_EQ(system.completion_cycle(second), 54);
  EXPECT_FALSE(check_command_stream(system.config(), commands).has_value());
}

// A write to rank 0 then a read of rank 1: within one rank the read would wait for the write
// data and tWTR_S (22 + 16 + 4 + 4 = 46); from another rank only the bus counts: write data
// ends at 22 + 16 + 4 = 42, read data may start tRTRS later at 44, i.e. RD at 44 - 22 = 22,
// below rank 1's tRCD: the RD goes at 1 + 22 = 23 and is done at 23 + 26 = 49.
// Two writes of different ranks need no switch (the controller drives both): WR rank 1 is
// tBL = 4 after WR rank 0 at 22, at 26 (its bank's tRCD allowing 23).
TEST(DramRanks, AnotherRanksReadWaitsForTheBusNotForTwtr) {
  for (bool second_is_write : {false, true}) {
    DramSystem system(two_ranks());
    const AddressMapping& mapping = system.mapping();
    system.enqueue(
        {.addr = mapping.encode({.rank = 0}), .is_write = true, .bytes = 64, .arrival_cycle = 0});
    const int64_t second = system.enqueue({.addr = mapping.encode({.rank = 1}),
                                           .is_write = second_is_write,
                                           .bytes = 64,
                                           .arrival_cycle = 0});
    system.run();
    const std::vector<Command>& commands = system.commands(0, 0);
    const CommandKind kind = second_is_write ? CommandKind::kWrite : CommandKind::kRead;
    const std::vector<Command> second_column = of_kind(commands, kind);
    ASSERT_FALSE(second_column.empty());
    EXPECT_EQ(second_column.back().rank, 1);
    EXPECT_EQ(second_column.back().cycle, second_is_write ? 26 : 23);
    EXPECT_EQ(system.completion_cycle(second), second_is_write ? 26 + 16 + 4 : 49);
    EXPECT_FALSE(check_command_stream(system.config(), commands).has_value());
  }
}

// Staggered refresh: rank 0 falls due at tREFI / 2 = 6240, rank 1 at 12480, then each every
// tREFI. Simultaneous: both at 12480, rank 1 one command-bus cycle later.
TEST(DramRanks, RefreshIsStaggeredOverTheRanks) {
  for (bool staggered : {true, false}) {
    DramConfig config = two_ranks();
    config.controller.refresh_staggered = staggered;
    DramSystem system(config);
    system.enqueue({.addr = 0, .arrival_cycle = 2 * 12480 + 100});
    system.run();
    const std::vector<Command> refreshes = of_kind(system.commands(0, 0), CommandKind::kRefresh);
    const std::vector<std::pair<int, int64_t>> expected =
        staggered
            ? std::vector<std::pair<int, int64_t>>{{0, 6240}, {1, 12480}, {0, 18720}, {1, 24960}}
            : std::vector<std::pair<int, int64_t>>{{0, 12480}, {1, 12481}, {0, 24960}, {1, 24961}};
    ASSERT_EQ(refreshes.size(), expected.size()) << staggered;
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(refreshes[i].rank, expected[i].first) << staggered << " " << i;
      EXPECT_EQ(refreshes[i].cycle, expected[i].second) << staggered << " " << i;
    }
    EXPECT_FALSE(check_command_stream(config, system.commands(0, 0)).has_value());
  }
}

// While rank 0 refreshes (REF at 6240, busy tRFC = 560 cycles), rank 1 keeps serving: a read
// of rank 1 arriving at 6240 has its ACT at 6241 and its RD at 6263, data done at 6289. The
// same read of rank 0 waits for the refresh: ACT at 6240 + 560 = 6800.
TEST(DramRanks, OneRanksRefreshLeavesTheOtherWorking) {
  for (int rank : {0, 1}) {
    DramSystem system(two_ranks());
    const int64_t id = system.enqueue(
        {.addr = system.mapping().encode({.rank = rank}), .bytes = 64, .arrival_cycle = 6240});
    system.run();
    EXPECT_EQ(system.completion_cycle(id), rank == 1 ? 6289 : 6800 + 22 + 22 + 4) << rank;
  }
}

}  // namespace
}  // namespace polyarch::sim::dram
