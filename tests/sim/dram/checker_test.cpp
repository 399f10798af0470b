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

TEST_F(TimingChecker, KeepsPseudoChannelsApart) {
  DramConfig hbm = hbm2e_3200();
  Command other = act(0, 0, 0);
  other.pseudo_channel = 1;
  // Same cycle and same bank coordinates, but different pseudo-channels: both legal.
  EXPECT_FALSE(check_command_stream(hbm, std::vector{act(0, 0, 0), other}).has_value());
}

}  // namespace
}  // namespace polyarch::sim::dram
