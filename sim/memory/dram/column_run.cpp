#include "sim/memory/dram/column_run.h"

#include <algorithm>

namespace polyarch::sim::dram {
namespace {

CommandKind column_kind(const QueuedBurst& burst) {
  return burst.is_write ? CommandKind::kWrite : CommandKind::kRead;
}

// When a burst outside the run could first issue a command while the run goes on: from the
// bank state at the run's start, its arrival, and how far each column command of the run
// pushes its own column command back.
struct Contender {
  int64_t ready_cycle = kNever;  // lower bound, before the run issues anything
  int64_t pushed_by_run = 0;     // its earliest cycle is at least (run command + this)
  bool row_command = false;      // ACT or PRE
};

Contender contender(const QueuedBurst& burst, const ChannelState& banks, const QueuedBurst& front) {
  const DramAddress& address = burst.address;
  const DramAddress& run = front.address;
  const int64_t open_row = banks.open_row(address.rank, address.bank_group, address.bank);
  const bool run_rank = address.rank == run.rank;
  const bool run_bank =
      run_rank && address.bank_group == run.bank_group && address.bank == run.bank;
  Contender result;
  if (open_row == address.row) {
    const CommandKind kind = column_kind(burst);
    result.ready_cycle = banks.earliest(kind, address.rank, address.bank_group, address.bank);
    result.pushed_by_run = banks.column_gap(column_kind(front), run.rank, kind, address.rank,
                                            run_rank && address.bank_group == run.bank_group);
  } else if (open_row == kClosedRow) {
    result.ready_cycle =
        banks.earliest(CommandKind::kActivate, address.rank, address.bank_group, address.bank);
    result.row_command = true;
  } else if (run_bank) {
    // FR-FCFS does not close a row that an older queued burst (the run's first) still hits.
    return result;
  } else {
    result.ready_cycle =
        banks.earliest(CommandKind::kPrecharge, address.rank, address.bank_group, address.bank);
    result.row_command = true;
  }
  result.ready_cycle = std::max(result.ready_cycle, burst.arrival_cycle);
  return result;
}

}  // namespace

ColumnRun plan_column_run(const ColumnRunContext& context) {
  if (context.queue.empty()) return {};
  const ChannelState& banks = context.banks;
  const QueuedBurst& front = context.queue.front();
  const DramAddress& run = front.address;
  if (banks.open_row(run.rank, run.bank_group, run.bank) != run.row) return {};
  // Under the closed-page policy the scheduler also closes open rows nobody hits; with only the
  // run's bank open there are none.
  if (context.page_policy == PagePolicy::kClosed && banks.open_bank_count() != 1) return {};
  const CommandKind kind = column_kind(front);
  const int64_t first_cycle =
      std::max(context.now, banks.earliest(kind, run.rank, run.bank_group, run.bank));
  if (first_cycle >= context.stop_cycle) return {};
  // After a column command to the run's bank, the next one to it waits exactly this long: the
  // command that could issue was ready by first_cycle, and each issue raises its limits anew.
  const int64_t spacing = banks.column_gap(kind, run.rank, kind, run.rank, true);

  const auto size = static_cast<int64_t>(context.queue.size() + context.waiting.size());
  const auto burst_at = [&](int64_t position) -> const QueuedBurst& {
    const auto queued = static_cast<int64_t>(context.queue.size());
    return position < queued ? context.queue[static_cast<size_t>(position)]
                             : context.waiting[static_cast<size_t>(position - queued)];
  };
  const auto in_run = [&](const QueuedBurst& burst) {
    return burst.is_write == front.is_write && burst.address.rank == run.rank &&
           burst.address.bank_group == run.bank_group && burst.address.bank == run.bank &&
           burst.address.row == run.row && burst.arrival_cycle <= context.now;
  };

  int64_t run_length = 0;  // positions [0, run_length) are the run's bursts
  int64_t classified = 0;  // positions [0, classified) have been looked at
  // Bursts in the window before the first command: none may be ready before it.
  int64_t earliest_before_first = kNever;
  // Bursts in the window that the run's commands do not hold off: none may be ready before the
  // run's next command.
  int64_t earliest_between = kNever;
  // Dual command issue: row commands of bursts in the window; none may be ready by a command
  // of the run (it would go out beside it).
  int64_t earliest_row_command = kNever;
  ColumnRun result{.first_cycle = first_cycle, .spacing_cycles = spacing, .kind = kind};
  for (int64_t k = 0;; ++k) {
    const int64_t cycle = first_cycle + k * spacing;
    if (cycle >= context.stop_cycle) break;
    // While the k-th command waits, the queue holds at most positions [k, k + queue_depth).
    if (context.more_bursts_follow && k + context.queue_depth > size) break;
    const int64_t window_end = std::min(size, k + context.queue_depth);
    for (; classified < window_end; ++classified) {
      const QueuedBurst& burst = burst_at(classified);
      if (run_length == classified && in_run(burst)) {
        ++run_length;
        continue;
      }
      const Contender other = contender(burst, banks, front);
      if (k == 0) earliest_before_first = std::min(earliest_before_first, other.ready_cycle);
      if (other.pushed_by_run < spacing) {
        earliest_between = std::min(earliest_between, other.ready_cycle);
      }
      if (other.row_command) {
        earliest_row_command = std::min(earliest_row_command, other.ready_cycle);
      }
    }
    if (k >= run_length) break;
    if (k == 0 && first_cycle > context.now && earliest_before_first < first_cycle) break;
    if (k > 0 && earliest_between < cycle) break;
    if (context.dual_command_issue && earliest_row_command <= cycle) break;
    result.count = k + 1;
  }
  return result;
}

}  // namespace polyarch::sim::dram
