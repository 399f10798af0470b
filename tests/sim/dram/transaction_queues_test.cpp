#include "sim/memory/dram/transaction_queues.h"

#include <gtest/gtest.h>

#include <vector>

namespace polyarch::sim::dram {
namespace {

ControllerOptions two_level(int transaction_queue, int command_queue) {
  ControllerOptions options;
  options.queue_depth = transaction_queue;
  options.command_queue_depth = command_queue;
  options.command_queue_per_bank = true;
  return options;
}

QueuedBurst burst(int64_t id, int bank, bool is_write = false) {
  QueuedBurst queued;
  queued.request_id = id;
  queued.is_write = is_write;
  queued.address.bank = bank;
  return queued;
}

TEST(TransactionQueues, MovesTheOldestReadWhoseBankQueueHasRoom) {
  TransactionQueues queues(two_level(32, 2));
  std::vector<QueuedBurst> command_queues = {burst(0, 1), burst(1, 1)};  // bank 1 is full
  queues.add(burst(2, 1));
  queues.add(burst(3, 2));
  ASSERT_TRUE(queues.move_one(command_queues, false));
  EXPECT_EQ(command_queues.back().request_id, 3);  // the older one waits for bank 1
  command_queues.erase(command_queues.begin());    // bank 1 issued one
  ASSERT_TRUE(queues.move_one(command_queues, false));
  EXPECT_EQ(command_queues.back().request_id, 2);
  EXPECT_FALSE(queues.move_one(command_queues, false));
  EXPECT_TRUE(queues.empty());
}

TEST(TransactionQueues, ReadsAndWritesHaveQueuesOfTheirOwn) {
  TransactionQueues queues(two_level(2, 8));
  queues.add(burst(0, 0));
  queues.add(burst(1, 1));
  EXPECT_FALSE(queues.has_room(false));
  EXPECT_TRUE(queues.has_room(true));
}

TEST(TransactionQueues, WritesWaitUntilNineAreBufferedAndTheCommandQueuesAreEmpty) {
  TransactionQueues queues(two_level(32, 8));
  std::vector<QueuedBurst> command_queues;
  for (int i = 0; i < 8; ++i) queues.add(burst(i, i % 4, true));
  EXPECT_FALSE(queues.move_one(command_queues, false));  // 8 is not more than 8
  queues.add(burst(8, 0, true));
  command_queues.push_back(burst(100, 5));  // a read still queued: no drain yet
  EXPECT_FALSE(queues.move_one(command_queues, false));
  command_queues.clear();
  // Idle and 9 buffered: all nine drain, one per call, before any read moves.
  queues.add(burst(9, 3));
  for (int i = 0; i < 9; ++i) {
    ASSERT_TRUE(queues.move_one(command_queues, false)) << i;
    EXPECT_TRUE(command_queues.back().is_write) << i;
  }
  ASSERT_TRUE(queues.move_one(command_queues, false));
  EXPECT_EQ(command_queues.back().request_id, 9);
}

TEST(TransactionQueues, AFullWriteBufferDrainsAndTheLastWritesAreFlushed) {
  TransactionQueues full(two_level(4, 8));
  std::vector<QueuedBurst> command_queues = {burst(100, 7)};
  for (int i = 0; i < 4; ++i) full.add(burst(i, i, true));
  full.add(burst(4, 2));
  ASSERT_TRUE(full.move_one(command_queues, false));
  EXPECT_TRUE(command_queues.back().is_write);

  TransactionQueues last(two_level(32, 8));
  std::vector<QueuedBurst> empty_queues;
  last.add(burst(0, 0, true));
  EXPECT_FALSE(last.move_one(empty_queues, false));
  EXPECT_TRUE(last.move_one(empty_queues, true));  // no more requests will come
  EXPECT_TRUE(last.empty());
}

}  // namespace
}  // namespace polyarch::sim::dram
