#pragma once
// The front of a controller with command queues (ControllerOptions::command_queue_depth > 0),
// as DRAMsim3's controller.cc has it: reads wait in a read queue and writes in a write buffer,
// `queue_depth` bursts each. Every cycle one burst moves on into the command queues the
// scheduler sees (per bank, or one per rank, `command_queue_depth` bursts each): the
// oldest read whose command queue has room, or, while the write buffer drains, the oldest
// such write. Draining starts when the write buffer is full, or holds more than 8 writes while
// the command queues are empty (DRAMsim3's thresholds), and moves the writes it found there.
#include <cstddef>
#include <deque>
#include <vector>

#include "sim/memory/dram/config.h"
#include "sim/memory/dram/scheduler.h"

namespace polyarch::sim::dram {

class TransactionQueues {
 public:
  explicit TransactionQueues(const ControllerOptions& options);

  bool has_room(bool is_write) const;
  void add(const QueuedBurst& burst);  // has_room(burst.is_write) must hold
  bool empty() const { return reads_.empty() && writes_.empty(); }

  // Moves one burst into `command_queues` (the scheduler's queue, arrival order kept per
  // bank); false if none may move. `flush_writes`: no more requests will come, so writes
  // below the drain threshold go too (DRAMsim3 would leave them in its buffer).
  bool move_one(std::vector<QueuedBurst>& command_queues, bool flush_writes);

 private:
  bool command_queue_has_room(const std::vector<QueuedBurst>& command_queues,
                              const QueuedBurst& burst) const;

  size_t depth_;
  size_t command_queue_depth_;
  bool per_bank_;
  std::deque<QueuedBurst> reads_;
  std::deque<QueuedBurst> writes_;
  size_t writes_to_drain_ = 0;
};

}  // namespace polyarch::sim::dram
