#include "sim/memory/dram/scheduler.h"

#include <algorithm>
#include <bit>

namespace polyarch::sim::dram {
namespace {

// Keeps the best candidate: anything ready now beats a later one; among those ready, the first
// offered (the oldest request, as callers offer in queue order) wins. Once one is ready nothing
// offered later can change the decision (next_ready only matters when nothing issues), so the
// callers stop offering: done().
struct Pick {
  SchedulerDecision decision;
  void offer(const SchedulerDecision& candidate, int64_t ready_cycle, int64_t now) {
    if (ready_cycle <= now) {
      if (!decision.issue_now) {
        decision = candidate;
        decision.issue_now = true;
      }
      return;
    }
    decision.next_ready = std::min(decision.next_ready, ready_cycle);
  }
  bool done() const { return decision.issue_now; }
};

}  // namespace

FrFcfsScheduler::FrFcfsScheduler(const DramConfig& config)
    : page_policy_(config.controller.page_policy),
      organization_(config.organization),
      marks_(static_cast<size_t>(config.organization.ranks * config.banks_per_pseudo_channel())) {}

SchedulerDecision FrFcfsScheduler::refresh(const ChannelState& banks, int64_t now,
                                           const RefreshDue& refresh_due) {
  Pick pick;
  for (int rank = 0; rank < banks.ranks(); ++rank) {
    if (!rank_in(refresh_due.ranks, rank)) continue;
    if (banks.open_bank_count(rank) == 0) {
      SchedulerDecision refresh{.kind = CommandKind::kRefresh, .rank = rank};
      pick.offer(refresh, banks.earliest(CommandKind::kRefresh, rank, 0, 0), now);
      if (pick.done()) return pick.decision;
      continue;
    }
    // The open banks in bank-group, then bank order.
    const int per_group = banks.banks_per_group();
    for (uint64_t open = banks.rank(rank).open_banks(); open != 0; open &= open - 1) {
      const int flat = std::countr_zero(open);
      const int group = flat / per_group;
      const int bank = flat % per_group;
      SchedulerDecision close{
          .kind = CommandKind::kPrecharge, .rank = rank, .bank_group = group, .bank = bank};
      pick.offer(close, banks.earliest(CommandKind::kPrecharge, rank, group, bank), now);
      if (pick.done()) return pick.decision;
    }
  }
  if (refresh_due.bank >= 0) {
    const BankCoordinates due = banks.organization().bank_coordinates(refresh_due.bank);
    SchedulerDecision bank{.kind = CommandKind::kRefreshBank,
                           .rank = due.rank,
                           .bank_group = due.bank_group,
                           .bank = due.bank};
    if (banks.open_row(bank.rank, bank.bank_group, bank.bank) != kClosedRow) {
      bank.kind = CommandKind::kPrecharge;
    }
    pick.offer(bank, banks.earliest(bank.kind, bank.rank, bank.bank_group, bank.bank), now);
  }
  return pick.decision;
}

SchedulerDecision FrFcfsScheduler::decide(std::span<const QueuedBurst> queue,
                                          const ChannelState& banks, int64_t now,
                                          const RefreshDue& refresh_due) {
  // The oldest burst, a row hit whose column command may issue now, is what the passes below
  // would pick first (pass 1 offers hits oldest first and keeps the first one ready): in a
  // stream that is the common case, so it is taken without scanning the queue.
  const bool any_due = refresh_due.any();
  if (!queue.empty() && !(any_due && held(queue.front().address, refresh_due))) {
    const DramAddress& oldest = queue.front().address;
    const CommandKind kind = queue.front().is_write ? CommandKind::kWrite : CommandKind::kRead;
    if (banks.open_row(oldest.rank, oldest.bank_group, oldest.bank) == oldest.row &&
        banks.earliest(kind, oldest.rank, oldest.bank_group, oldest.bank) <= now) {
      return {.issue_now = true,
              .kind = kind,
              .rank = oldest.rank,
              .bank_group = oldest.bank_group,
              .bank = oldest.bank,
              .row = oldest.row,
              .queue_index = 0};
    }
  }
  const int queue_size = static_cast<int>(queue.size());
  ++decision_count_;  // every bank's marks start afresh
  queue_size_ = queue_size;

  // Pass 1: row hits, oldest first.
  Pick hits;
  for (int i = 0; i < queue_size; ++i) {
    const DramAddress& address = queue[i].address;
    if (banks.open_row(address.rank, address.bank_group, address.bank) != address.row) continue;
    const int bank = bank_index(address);
    BankMarks& marks = marks_of(bank);
    marks.oldest_hit = std::min(marks.oldest_hit, i);
    if (any_due && held(address, refresh_due)) continue;
    const CommandKind kind = queue[i].is_write ? CommandKind::kWrite : CommandKind::kRead;
    // Later hits of the same kind to the same bank are ready no sooner than the oldest one.
    const uint8_t flag = queue[i].is_write ? kWriteHitOffered : kReadHitOffered;
    if (marks.considered & flag) continue;
    marks.considered |= flag;
    const SchedulerDecision column{.kind = kind,
                                   .rank = address.rank,
                                   .bank_group = address.bank_group,
                                   .bank = address.bank,
                                   .row = address.row,
                                   .queue_index = i};
    hits.offer(column, banks.earliest(kind, address.rank, address.bank_group, address.bank), now);
    // Pass 2 would need the oldest hits of the bursts after this one, but it does not run.
    if (hits.done()) return hits.decision;
  }

  // Pass 2: ACT for requests to closed banks, PRE for requests that conflict with an open row
  // no older request still hits; oldest request first.
  Pick rows = hits;
  for (int i = 0; i < queue_size; ++i) {
    const DramAddress& address = queue[i].address;
    if (any_due && held(address, refresh_due)) continue;
    const int64_t open_row = banks.open_row(address.rank, address.bank_group, address.bank);
    if (open_row == address.row) continue;
    // Only the oldest non-hit request of a bank can need a row command first: a younger one
    // needs the same ACT, or a PRE that an older hit forbids at least as long.
    const int bank = bank_index(address);
    BankMarks& marks = marks_of(bank);
    if (marks.considered & kRowCommandOffered) continue;
    marks.considered |= kRowCommandOffered;
    SchedulerDecision row_command{.rank = address.rank,
                                  .bank_group = address.bank_group,
                                  .bank = address.bank,
                                  .row = address.row,
                                  .queue_index = i};
    if (open_row == kClosedRow) {
      row_command.kind = CommandKind::kActivate;
    } else if (marks.oldest_hit > i) {
      row_command.kind = CommandKind::kPrecharge;
    } else {
      continue;
    }
    rows.offer(row_command,
               banks.earliest(row_command.kind, address.rank, address.bank_group, address.bank),
               now);
    if (rows.done()) return rows.decision;
  }
  if (rows.decision.issue_now || page_policy_ == PagePolicy::kOpen) return rows.decision;

  // Closed page: precharge open rows that no queued request hits.
  for (int rank = 0; rank < banks.ranks(); ++rank) {
    if (rank_in(refresh_due.ranks, rank)) continue;
    for (int group = 0; group < banks.bank_groups(); ++group) {
      for (int bank = 0; bank < banks.banks_per_group(); ++bank) {
        if (banks.open_row(rank, group, bank) == kClosedRow) continue;
        const int index = organization_.flat_bank(rank, group, bank);
        if (marks_of(index).oldest_hit < queue_size || index == refresh_due.bank) continue;
        const SchedulerDecision close{
            .kind = CommandKind::kPrecharge, .rank = rank, .bank_group = group, .bank = bank};
        rows.offer(close, banks.earliest(CommandKind::kPrecharge, rank, group, bank), now);
        if (rows.done()) return rows.decision;
      }
    }
  }
  return rows.decision;
}

}  // namespace polyarch::sim::dram
