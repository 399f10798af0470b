#include "sim/memory/dram/checker.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

Command act(int64_t cycle, int group, int bank, int64_t row = 7) {
  return {.cycle = cycle,
          .kind = CommandKind::kActivate,
          .bank_group = group,
          .bank = bank,
          .row = row};
}
Command pre(int64_t cycle, int group, int bank) {
  return {.cycle = cycle, .kind = CommandKind::kPrecharge, .bank_group = group, .bank = bank};
}
Command rd(int64_t cycle, int group, int bank, int64_t row = 7) {
  return {
      .cycle = cycle, .kind = CommandKind::kRead, .bank_group = group, .bank = bank, .row = row};
}
Command wr(int64_t cycle, int group, int bank, int64_t row = 7) {
  return {
      .cycle = cycle, .kind = CommandKind::kWrite, .bank_group = group, .bank = bank, .row = row};
}
Command ref(int64_t cycle) { return {.cycle = cycle, .kind = CommandKind::kRefresh}; }

// A stream whose last command comes `gap` cycles after some earlier one: legal at the
// constraint's minimum, illegal one cycle sooner.
using StreamWithGap = std::function<std::vector<Command>(int64_t gap)>;

void expect_minimum_gap(const DramConfig& config, const std::string& rule, int64_t minimum,
                        const StreamWithGap& stream) {
  const std::vector<Command> legal = stream(minimum);
  const auto accepted = check_command_stream(config, legal);
  EXPECT_FALSE(accepted.has_value()) << rule << " at its minimum rejected: " << accepted->message;
  const std::vector<Command> illegal = stream(minimum - 1);
  const auto rejected = check_command_stream(config, illegal);
  ASSERT_TRUE(rejected.has_value()) << rule << " one cycle short was accepted";
  EXPECT_EQ(rejected->rule, rule) << rejected->message;
  EXPECT_EQ(rejected->command, illegal.back());
  EXPECT_NE(rejected->message.find(rule + " violated"), std::string::npos) << rejected->message;
}

class TimingChecker : public ::testing::Test {
 protected:
  DramConfig config = ddr4_3200();
  const DramTiming& t = config.timing;
  int64_t burst = config.burst_cycles();
};

TEST_F(TimingChecker, RejectsReadSoonerThanTrcdAfterActivate) {
  expect_minimum_gap(config, "tRCD", t.tRCD, [](int64_t gap) {
    return std::vector{act(0, 0, 0), rd(gap, 0, 0)};
  });
}

TEST_F(TimingChecker, RejectsWriteSoonerThanTrcdAfterActivate) {
  expect_minimum_gap(config, "tRCD", t.tRCD, [](int64_t gap) {
    return std::vector{act(0, 0, 0), wr(gap, 0, 0)};
  });
}

TEST_F(TimingChecker, RejectsPrechargeSoonerThanTrasAfterActivate) {
  expect_minimum_gap(config, "tRAS", t.tRAS, [](int64_t gap) {
    return std::vector{act(0, 0, 0), pre(gap, 0, 0)};
  });
}

TEST_F(TimingChecker, RejectsActivateSoonerThanTrpAfterPrecharge) {
  const int64_t ras = t.tRAS;
  expect_minimum_gap(config, "tRP", t.tRP, [ras](int64_t gap) {
    return std::vector{act(0, 1, 2), pre(ras, 1, 2), act(ras + gap, 1, 2, 9)};
  });
}

TEST_F(TimingChecker, RejectsPrechargeSoonerThanTrtpAfterRead) {
  const int64_t ras = t.tRAS;
  expect_minimum_gap(config, "tRTP", t.tRTP, [ras](int64_t gap) {
    return std::vector{act(0, 0, 0), rd(ras, 0, 0), pre(ras + gap, 0, 0)};
  });
}

TEST_F(TimingChecker, RejectsPrechargeBeforeWriteRecovery) {
  const int64_t ras = t.tRAS;
  expect_minimum_gap(config, "tWR", t.tWL + burst + t.tWR, [ras](int64_t gap) {
    return std::vector{act(0, 0, 0), wr(ras, 0, 0), pre(ras + gap, 0, 0)};
  });
}

TEST_F(TimingChecker, RejectsReadsInOneBankGroupCloserThanTccdL) {
  expect_minimum_gap(config, "tCCD_L", t.tCCD_L, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(10, 0, 1), rd(100, 0, 0), rd(100 + gap, 0, 1)};
  });
}

TEST_F(TimingChecker, RejectsWritesInOneBankGroupCloserThanTccdL) {
  expect_minimum_gap(config, "tCCD_L", t.tCCD_L, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(10, 0, 1), wr(100, 0, 0), wr(100 + gap, 0, 1)};
  });
}

TEST_F(TimingChecker, RejectsReadsInDifferentBankGroupsCloserThanTccdS) {
  expect_minimum_gap(config, "tCCD_S", t.tCCD_S, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(10, 1, 0), rd(100, 0, 0), rd(100 + gap, 1, 0)};
  });
}

TEST_F(TimingChecker, RejectsActivatesInOneBankGroupCloserThanTrrdL) {
  expect_minimum_gap(config, "tRRD_L", t.tRRD_L, [](int64_t gap) {
    return std::vector{act(0, 2, 0), act(gap, 2, 1)};
  });
}

TEST_F(TimingChecker, RejectsActivatesInDifferentBankGroupsCloserThanTrrdS) {
  expect_minimum_gap(config, "tRRD_S", t.tRRD_S, [](int64_t gap) {
    return std::vector{act(0, 2, 0), act(gap, 3, 0)};
  });
}

TEST_F(TimingChecker, RejectsFifthActivateInsideTfawWindow) {
  const int64_t rrd = t.tRRD_S;
  expect_minimum_gap(config, "tFAW", t.tFAW, [rrd](int64_t gap) {
    return std::vector{act(0, 0, 0), act(rrd, 1, 0), act(2 * rrd, 2, 0), act(3 * rrd, 3, 0),
                       act(gap, 0, 1)};
  });
}

TEST_F(TimingChecker, RejectsReadTooSoonAfterWriteInOneBankGroup) {
  expect_minimum_gap(config, "tWTR_L", t.tWL + burst + t.tWTR_L, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(10, 0, 1), wr(100, 0, 0), rd(100 + gap, 0, 1)};
  });
}

TEST_F(TimingChecker, RejectsReadTooSoonAfterWriteInAnotherBankGroup) {
  expect_minimum_gap(config, "tWTR_S", t.tWL + burst + t.tWTR_S, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(10, 1, 0), wr(100, 0, 0), rd(100 + gap, 1, 0)};
  });
}

TEST_F(TimingChecker, RejectsWriteBeforeReadDataAndTurnaroundLeaveTheBus) {
  expect_minimum_gap(config, "tRTW", t.tCL + burst + t.tRTW_turnaround - t.tWL, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(10, 1, 0), rd(100, 0, 0), wr(100 + gap, 1, 0)};
  });
}

TEST_F(TimingChecker, RejectsActivateDuringRefresh) {
  expect_minimum_gap(config, "tRFC", t.tRFC, [](int64_t gap) {
    return std::vector{ref(100), act(100 + gap, 0, 0)};
  });
}

TEST_F(TimingChecker, RejectsRefreshDuringRefresh) {
  expect_minimum_gap(config, "tRFC", t.tRFC, [](int64_t gap) {
    return std::vector{ref(100), ref(100 + gap)};
  });
}

TEST_F(TimingChecker, RejectsRefreshSoonerThanTrpAfterPrecharge) {
  const int64_t ras = t.tRAS;
  expect_minimum_gap(config, "tRP", t.tRP, [ras](int64_t gap) {
    return std::vector{act(0, 0, 0), pre(ras, 0, 0), ref(ras + gap)};
  });
}

TEST_F(TimingChecker, RejectsOverlappingDataBursts) {
  // With tCCD_S below the burst length only the data bus keeps reads apart.
  config.timing.tCCD_S = 2;
  expect_minimum_gap(config, "data bus", burst, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(10, 1, 0), rd(100, 0, 0), rd(100 + gap, 1, 0)};
  });
}

TEST_F(TimingChecker, RejectsRefreshIntervalBeyondPostponementLimit) {
  // JESD79-4 allows postponing 8 refreshes: 9 x tREFI after a REF is the last legal cycle.
  const int64_t limit = (t.max_postponed_refreshes + 1) * t.tREFI;
  EXPECT_FALSE(check_command_stream(config, std::vector{ref(0), act(limit, 0, 0)}).has_value());
  const auto found = check_command_stream(config, std::vector{ref(0), act(limit + 1, 0, 0)});
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->rule, "tREFI") << found->message;
}

TEST_F(TimingChecker, AcceptsLongIdleStretchesWhenRefreshIsDisabled) {
  config.controller.refresh = false;
  EXPECT_FALSE(check_command_stream(config, std::vector{act(100 * t.tREFI, 0, 0)}).has_value());
}

TEST_F(TimingChecker, RejectsCommandsThatBreakBankState) {
  const int64_t late = 1000;
  const std::vector<std::pair<std::vector<Command>, std::string>> cases = {
      {{rd(late, 0, 0)}, "no open row"},
      {{act(0, 0, 0), act(late, 0, 0, 8)}, "already has row 7 open"},
      {{act(0, 0, 0), rd(late, 0, 0, 8)}, "open row is 7"},
      {{pre(late, 0, 0)}, "no open row"},
      {{act(0, 0, 0), ref(late)}, "still has row 7 open"},
      {{act(0, 0, 0, config.organization.rows)}, "outside the organisation"},
  };
  for (const auto& [stream, why] : cases) {
    const auto found = check_command_stream(config, stream);
    ASSERT_TRUE(found.has_value()) << why;
    EXPECT_EQ(found->rule, "bank state");
    EXPECT_NE(found->message.find(why), std::string::npos) << found->message;
  }
}

TEST_F(TimingChecker, RejectsTwoCommandsInOneCycleOfOnePseudoChannel) {
  const auto found = check_command_stream(config, std::vector{act(5, 0, 0), act(5, 1, 0)});
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->rule, "command bus");
}

TEST_F(TimingChecker, RejectsARowAndAColumnCommandInOneCycleOnOneCommandBus) {
  // DDR4 has one command bus: an ACT beside a RD to another bank group is one too many.
  const std::vector<Command> pair{act(0, 0, 0), rd(22, 0, 0), act(22, 1, 0)};
  const auto found = check_command_stream(config, pair);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->rule, "command bus");
  EXPECT_EQ(found->command, pair.back());
}

TEST_F(TimingChecker, HbmTakesOneRowAndOneColumnCommandPerCycle) {
  const DramConfig hbm = hbm2e_3200();
  const int64_t trcd = hbm.timing.tRCD;
  // JESD235's row and column command buses: an ACT beside a RD, in either order, is legal.
  EXPECT_FALSE(
      check_command_stream(hbm, std::vector{act(0, 0, 0), rd(trcd, 0, 0), act(trcd, 1, 0)}));
  EXPECT_FALSE(
      check_command_stream(hbm, std::vector{act(0, 0, 0), act(trcd, 1, 0), rd(trcd, 0, 0)}));
  // Two row commands, or two column commands, in one cycle are not.
  const auto two_rows =
      check_command_stream(hbm, std::vector{act(0, 0, 0), act(20, 1, 0), pre(hbm.timing.tRAS, 0, 0),
                                            act(hbm.timing.tRAS, 2, 0)});
  ASSERT_TRUE(two_rows.has_value());
  EXPECT_EQ(two_rows->rule, "command bus");
  const auto two_columns = check_command_stream(
      hbm, std::vector{act(0, 0, 0), act(10, 1, 0), rd(40, 0, 0), wr(40, 1, 0)});
  ASSERT_TRUE(two_columns.has_value());
  EXPECT_EQ(two_columns->rule, "command bus");
  // Issue order still holds: a command may not come before the one listed ahead of it.
  const auto backwards =
      check_command_stream(hbm, std::vector{act(0, 0, 0), act(trcd + 1, 1, 0), rd(trcd, 0, 0)});
  ASSERT_TRUE(backwards.has_value());
  EXPECT_EQ(backwards->rule, "command bus");
}

TEST_F(TimingChecker, HbmPrechargeBesideAReadOfItsBankGroupBreaksTrtpL) {
  DramConfig hbm = hbm2e_3200();
  hbm.timing.tRTP_L = 6;
  // The PRE listed first: still not tRTP_L after the read that goes out in its cycle.
  const std::vector<Command> stream{act(0, 0, 0), act(10, 0, 1), pre(70, 0, 1), rd(70, 0, 0)};
  const auto found = check_command_stream(hbm, stream);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->rule, "tRTP_L");
  EXPECT_EQ(found->command, stream.back());
}

TEST_F(TimingChecker, KeepsPseudoChannelsApart) {
  DramConfig hbm = hbm2e_3200();
  Command other = act(0, 0, 0);
  other.pseudo_channel = 1;
  // Same cycle and same bank coordinates, but different pseudo-channels: both legal.
  EXPECT_FALSE(check_command_stream(hbm, std::vector{act(0, 0, 0), other}).has_value());
}

Command on_rank(Command command, int rank) {
  command.rank = rank;
  return command;
}

class RankChecker : public TimingChecker {
 protected:
  void SetUp() override { config.organization.ranks = 2; }
};

// Two ranks' reads: the second's data may start tRTRS after the first's ends, so the RDs are
// tBL + tRTRS apart (DDR4-3200: 4 + 2).
TEST_F(RankChecker, RejectsReadsOfTwoRanksCloserThanTblPlusTrtrs) {
  expect_minimum_gap(config, "tRTRS", burst + t.tRTRS, [](int64_t gap) {
    return std::vector{act(0, 0, 0), on_rank(act(1, 0, 0), 1), rd(30, 0, 0),
                       on_rank(rd(30 + gap, 0, 0), 1)};
  });
}

// A read after another rank's write switches driver too: its data starts tRTRS after the
// write data, CWL + tBL + tRTRS - CL after the WR (16 + 4 + 2 - 22 = 0): one cycle, the command
// bus's, is enough (a read of the same rank needs CWL + tBL + tWTR_S).
TEST_F(RankChecker, ReadAfterAnotherRanksWriteNeedsNoTwtr) {
  EXPECT_FALSE(check_command_stream(config, std::vector{act(0, 0, 0), on_rank(act(1, 0, 0), 1),
                                                        wr(30, 0, 0), on_rank(rd(31, 0, 0), 1)})
                   .has_value());
}

// Two writes of two ranks: the controller drives both, only the burst separates them.
TEST_F(RankChecker, WritesOfTwoRanksAreOneBurstApart) {
  expect_minimum_gap(config, "data bus", burst, [](int64_t gap) {
    return std::vector{act(0, 0, 0), on_rank(act(1, 0, 0), 1), wr(30, 0, 0),
                       on_rank(wr(30 + gap, 0, 0), 1)};
  });
}

// tRRD, tFAW and refresh belong to a rank: ACTs of two ranks one cycle apart are legal, five
// ACTs within tFAW too when they are spread over the ranks; a REF of rank 1 with rank 0's bank
// open is legal, and rank 0's ACT after rank 1's REF needs no tRFC.
TEST_F(RankChecker, RankTimingsStayWithinTheirRank) {
  EXPECT_FALSE(check_command_stream(
                   config, std::vector{act(0, 0, 0), on_rank(act(1, 0, 0), 1), act(4, 1, 0),
                                       act(8, 2, 0), act(12, 3, 0), on_rank(act(13, 1, 0), 1)})
                   .has_value());
  EXPECT_FALSE(
      check_command_stream(config, std::vector{act(0, 0, 0), on_rank(ref(1), 1), act(5, 1, 0)})
          .has_value());
  const auto found =
      check_command_stream(config, std::vector{on_rank(ref(0), 1), on_rank(act(5, 1, 0), 1)});
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->rule, "tRFC");
  const auto outside = check_command_stream(config, std::vector{on_rank(act(0, 0, 0), 2)});
  ASSERT_TRUE(outside.has_value());
  EXPECT_EQ(outside->rule, "bank state");
}

TEST_F(TimingChecker, RejectsPrechargesCloserThanTppd) {
  config.timing.tPPD = 8;
  expect_minimum_gap(config, "tPPD", 8, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(4, 1, 0), pre(52, 0, 0), pre(52 + gap, 1, 0)};
  });
}

TEST_F(TimingChecker, RejectsPrechargesCloserThanTrtpLOrSToARead) {
  config.timing.tRTP_L = 40;
  config.timing.tRTP_S = 30;
  // Another bank of the read's bank group: tRTP_L; of another bank group: tRTP_S.
  expect_minimum_gap(config, "tRTP_L", 40, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(8, 0, 1), rd(30, 0, 0), pre(30 + gap, 0, 1)};
  });
  expect_minimum_gap(config, "tRTP_S", 30, [](int64_t gap) {
    return std::vector{act(0, 0, 0), act(4, 1, 0), rd(30, 0, 0), pre(30 + gap, 1, 0)};
  });
}

TEST_F(TimingChecker, PerBankRefreshHoldsItsBankForTrfcb) {
  config.controller.refresh_per_bank = true;
  config.timing.tRFCb = 100;
  config.timing.tREFIb = 1000;
  const Command refresh_bank{.cycle = 0, .kind = CommandKind::kRefreshBank};
  expect_minimum_gap(config, "tRFCb", 100, [&](int64_t gap) {
    return std::vector{refresh_bank, act(gap, 0, 0)};
  });
  // Another bank may open meanwhile; the refreshed bank must be closed.
  EXPECT_FALSE(check_command_stream(config, std::vector{refresh_bank, act(1, 1, 0)}).has_value());
  const auto open = check_command_stream(
      config, std::vector{act(0, 0, 0), Command{.cycle = 100, .kind = CommandKind::kRefreshBank}});
  ASSERT_TRUE(open.has_value());
  EXPECT_EQ(open->rule, "bank state");
  // Every bank's turn comes every 16 x tREFIb; nine turns may pass.
  const auto late = check_command_stream(config, std::vector{act(9 * 16 * 1000 + 1, 0, 0)});
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->rule, "tREFIb");
}

}  // namespace
}  // namespace polyarch::sim::dram
