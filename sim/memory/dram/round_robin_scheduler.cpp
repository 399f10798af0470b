#include "sim/memory/dram/round_robin_scheduler.h"

#include <algorithm>

namespace polyarch::sim::dram {

BankRoundRobinScheduler::BankRoundRobinScheduler(const DramConfig& config)
    : organization_(config.organization),
      bank_count_(config.organization.ranks * config.banks_per_pseudo_channel()),
      last_bank_(config.organization.ranks * config.banks_per_pseudo_channel() - 1) {}

SchedulerDecision BankRoundRobinScheduler::decide(std::span<const QueuedBurst> queue,
                                                  const ChannelState& banks, int64_t now,
                                                  const RefreshDue& refresh_due) {
  SchedulerDecision waiting;
  const int queue_size = static_cast<int>(queue.size());
  for (int step = 1; step <= bank_count_; ++step) {
    const int bank = (last_bank_ + step) % bank_count_;
    const BankCoordinates at = organization_.bank_coordinates(bank);
    const int rank = at.rank;
    const int group = at.bank_group;
    const int index = at.bank;
    if (rank_in(refresh_due.ranks, rank) || bank == refresh_due.bank) continue;
    const auto in_bank = [&](const QueuedBurst& burst) {
      return burst.address.rank == rank && burst.address.bank_group == group &&
             burst.address.bank == index;
    };
    const int64_t open_row = banks.open_row(rank, group, index);
    const bool hit_queued = std::any_of(queue.begin(), queue.end(), [&](const QueuedBurst& b) {
      return in_bank(b) && b.address.row == open_row;
    });
    bool first_of_bank = true;
    for (int i = 0; i < queue_size; ++i) {
      const QueuedBurst& burst = queue[i];
      if (!in_bank(burst)) continue;
      SchedulerDecision command{.rank = rank,
                                .bank_group = group,
                                .bank = index,
                                .row = burst.address.row,
                                .queue_index = i};
      const bool may_close = first_of_bank && !hit_queued;
      first_of_bank = false;
      if (open_row == burst.address.row) {
        command.kind = burst.is_write ? CommandKind::kWrite : CommandKind::kRead;
      } else if (open_row == kClosedRow) {
        command.kind = CommandKind::kActivate;
      } else if (may_close) {
        command.kind = CommandKind::kPrecharge;
      } else {
        continue;
      }
      const int64_t ready = banks.earliest(command.kind, rank, group, index);
      if (ready <= now) {
        command.issue_now = true;
        last_bank_ = bank;
        return command;
      }
      waiting.next_ready = std::min(waiting.next_ready, ready);
    }
  }
  return waiting;
}

}  // namespace polyarch::sim::dram
