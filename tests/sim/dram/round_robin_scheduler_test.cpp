#include "sim/memory/dram/round_robin_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

QueuedBurst read_of(int64_t id, int bank_group, int64_t row) {
  QueuedBurst burst;
  burst.request_id = id;
  burst.address.bank_group = bank_group;
  burst.address.row = row;
  return burst;
}

TEST(BankRoundRobinScheduler, VisitsTheBankAfterTheLastOneBeforeAnOlderRequest) {
  // DDR4-3200: rows 7 open in bank groups 0 and 1 (ACTs at 0 and 4, tRRD_S = 4).
  const DramConfig config = ddr4_3200();
  ChannelState banks(config);
  banks.issue(CommandKind::kActivate, 0, 0, 0, 7, 0);
  banks.issue(CommandKind::kActivate, 0, 1, 0, 7, 4);
  BankRoundRobinScheduler scheduler(config);

  // The first visit starts at bank 0: its read is ready at tRCD = 22.
  std::vector<QueuedBurst> queue = {read_of(0, 0, 7), read_of(1, 0, 7), read_of(2, 1, 7)};
  SchedulerDecision first = scheduler.decide(queue, banks, 22);
  ASSERT_TRUE(first.issue_now);
  EXPECT_EQ(first.queue_index, 0);
  banks.issue(CommandKind::kRead, 0, 0, 0, 7, 22);
  queue.erase(queue.begin());

  // At 30 both remaining reads may issue (tCCD_L = 8 in group 0, tCCD_S = 4 to group 1):
  // FR-FCFS would take the older one in group 0; round-robin moves on to group 1's bank.
  const SchedulerDecision second = scheduler.decide(queue, banks, 30);
  ASSERT_TRUE(second.issue_now);
  EXPECT_EQ(second.kind, CommandKind::kRead);
  EXPECT_EQ(second.bank_group, 1);
  EXPECT_EQ(queue[second.queue_index].request_id, 2);
}

TEST(BankRoundRobinScheduler, KeepsARowOpenWhileTheBankHasAHitQueued) {
  // Bank 0 of group 0 has row 7 open; its first burst wants row 9 and a later one row 7: the
  // row is not closed, the hit goes first once tRCD has passed.
  const DramConfig config = ddr4_3200();
  ChannelState banks(config);
  banks.issue(CommandKind::kActivate, 0, 0, 0, 7, 0);
  BankRoundRobinScheduler scheduler(config);
  const std::vector<QueuedBurst> queue = {read_of(0, 0, 9), read_of(1, 0, 7)};
  const SchedulerDecision early = scheduler.decide(queue, banks, 10);
  EXPECT_FALSE(early.issue_now);
  EXPECT_EQ(early.next_ready, 22);
  const SchedulerDecision hit = scheduler.decide(queue, banks, 22);
  ASSERT_TRUE(hit.issue_now);
  EXPECT_EQ(hit.kind, CommandKind::kRead);
  EXPECT_EQ(hit.queue_index, 1);
}

}  // namespace
}  // namespace polyarch::sim::dram
