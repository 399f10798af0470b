#include "sim/memory/dram/transaction_queues.h"

#include <algorithm>

namespace polyarch::sim::dram {
namespace {

// DRAMsim3's controller.cc starts draining a write buffer that holds more than this many
// writes once the command queues have run empty.
constexpr size_t kDrainWhenIdleAbove = 8;

}  // namespace

TransactionQueues::TransactionQueues(const ControllerOptions& options)
    : depth_(static_cast<size_t>(options.queue_depth)),
      command_queue_depth_(static_cast<size_t>(options.command_queue_depth)),
      per_bank_(options.command_queue_per_bank) {}

bool TransactionQueues::has_room(bool is_write) const {
  return (is_write ? writes_.size() : reads_.size()) < depth_;
}

void TransactionQueues::add(const QueuedBurst& burst) {
  (burst.is_write ? writes_ : reads_).push_back(burst);
}

bool TransactionQueues::command_queue_has_room(const std::vector<QueuedBurst>& command_queues,
                                               const QueuedBurst& burst) const {
  const auto same_queue =
      std::count_if(command_queues.begin(), command_queues.end(), [&](const QueuedBurst& queued) {
        return queued.address.rank == burst.address.rank &&
               (!per_bank_ || (queued.address.bank_group == burst.address.bank_group &&
                               queued.address.bank == burst.address.bank));
      });
  return static_cast<size_t>(same_queue) < command_queue_depth_;
}

bool TransactionQueues::move_one(std::vector<QueuedBurst>& command_queues, bool flush_writes) {
  if (writes_to_drain_ == 0) {
    const bool full = writes_.size() >= depth_;
    const bool idle = command_queues.empty() && writes_.size() > kDrainWhenIdleAbove;
    const bool last = flush_writes && reads_.empty() && command_queues.empty();
    if (full || idle || (last && !writes_.empty())) writes_to_drain_ = writes_.size();
  }
  std::deque<QueuedBurst>& source = writes_to_drain_ > 0 ? writes_ : reads_;
  for (auto candidate = source.begin(); candidate != source.end(); ++candidate) {
    if (!command_queue_has_room(command_queues, *candidate)) continue;
    if (candidate->is_write) --writes_to_drain_;
    command_queues.push_back(*candidate);
    source.erase(candidate);
    return true;
  }
  return false;
}

}  // namespace polyarch::sim::dram
