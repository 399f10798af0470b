#include "sim/memory/dram/controller.h"

#include <algorithm>

#include "base/error.h"
#include "sim/memory/dram/column_run.h"

namespace polyarch::sim::dram {
namespace {

const RefreshDue kNothingDue;

}  // namespace

Controller::Controller(const DramConfig& config, int channel, int pseudo_channel, bool column_runs)
    : config_(config),
      burst_bytes_(config.bytes_per_burst()),
      burst_cycles_(config.burst_cycles()),
      channel_(channel),
      pseudo_channel_(pseudo_channel),
      banks_(config),
      scheduler_(config),
      round_robin_(config),
      staged_(config.controller.command_queue_depth > 0),
      column_runs_(column_runs && !staged_ && !config.controller.bank_round_robin),
      idle_until_refresh_(column_runs_ && config.controller.page_policy == PagePolicy::kOpen),
      lone_bursts_(column_runs_ && idle_until_refresh_ && !config.controller.refresh_per_bank),
      transactions_(config.controller),
      pim_(config) {
  queue_.reserve(static_cast<size_t>(config.controller.queue_depth));
  // Rank r's first refresh falls due at (r + 1) tREFI / ranks when staggered (DRAMsim3's
  // Refresh: one rank every tREFI / ranks), at tREFI otherwise; each then every tREFI.
  const int ranks = config.organization.ranks;
  for (int rank = 0; rank < ranks; ++rank) {
    next_refresh_cycle_.push_back(config.controller.refresh_staggered
                                      ? (rank + 1) * config.timing.tREFI / ranks
                                      : config.timing.tREFI);
  }
  all_ranks_ = static_cast<RankMask>((uint64_t{1} << ranks) - 1);
  next_refresh_due_ = *std::min_element(next_refresh_cycle_.begin(), next_refresh_cycle_.end());
  next_bank_refresh_cycle_ = config.timing.tREFIb;
}

void Controller::run(std::vector<int64_t>& request_completion) {
  if (serve_alone(request_completion)) return;
  const auto by_arrival = [](const QueuedBurst& a, const QueuedBurst& b) {
    return a.arrival_cycle < b.arrival_cycle;
  };
  const auto first = waiting_.begin() + static_cast<std::ptrdiff_t>(next_waiting_);
  // A request's bursts all arrive together, so they usually come sorted already.
  if (!std::is_sorted(first, waiting_.end(), by_arrival)) {
    std::stable_sort(first, waiting_.end(), by_arrival);
  }
  simulate(kNever, false, request_completion);
  waiting_.clear();
  next_waiting_ = 0;
}

bool Controller::serve_alone(std::vector<int64_t>& request_completion) {
  if (!lone_bursts_ || waiting_.size() != 1 || next_waiting_ != 0 || !queue_.empty() ||
      waiting_.front().arrival_cycle > now_ || pim_.in_pim_mode()) {
    return false;
  }
  // What the loop's first cycle does: the burst enters the queue, the refresh work falling due
  // is marked, and with none due the lone burst is served up to the next refresh.
  queue_.push_back(waiting_.front());
  waiting_.clear();
  const int64_t next_refresh = config_.controller.refresh ? update_refresh_due() : kNever;
  if (refresh_due_.any() || !serve_lone_burst(next_refresh, request_completion) ||
      !queue_.empty()) {
    // A refresh came first or between its commands: the loop goes on from here (its next
    // cycle starts afresh, as after any fast path, and repeats no work that changed nothing).
    simulate(kNever, false, request_completion);
  }
  return true;
}

void Controller::run_while_fed(std::vector<int64_t>& request_completion) {
  simulate(kNever, false, request_completion, true);
  // What entered the queue is no longer needed here: keep the waiting list short.
  waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(next_waiting_));
  next_waiting_ = 0;
}

void Controller::run_until(int64_t cycle, std::vector<int64_t>& request_completion) {
  // Idle with no refresh falling due before `cycle`: the loop's idle jump would take it there
  // (the jedec backend's catch-up before most requests).
  if (idle_with_open_pages() && config_.controller.refresh &&
      !config_.controller.refresh_per_bank && !refresh_due_.any() && cycle <= next_refresh_due_) {
    now_ = std::max(now_, cycle);
    return;
  }
  simulate(cycle, true, request_completion);
}

bool Controller::has_queue_room(bool is_write) const {
  size_t pending = 0;
  for (size_t i = next_waiting_; i < waiting_.size(); ++i) {
    pending += !staged_ || waiting_[i].is_write == is_write ? 1 : 0;
  }
  if (!staged_)
    return queue_.size() + pending < static_cast<size_t>(config_.controller.queue_depth);
  return pending == 0 && transactions_.has_room(is_write);
}

bool Controller::can_enter(const QueuedBurst& burst) const {
  if (staged_) return transactions_.has_room(burst.is_write);
  return queue_.size() < static_cast<size_t>(config_.controller.queue_depth);
}

PimControllerPort Controller::pim_port() {
  return {.banks = banks_,
          .now = now_,
          .next_refresh_cycle = next_refresh_cycle_.front(),
          .refresh_enabled = config_.controller.refresh,
          .refresh_interval = config_.timing.tREFI,
          .issue =
              [this](CommandKind kind, int bank_group, int bank, int64_t row, int column,
                     int64_t cycle) {
                ++stats_.commands[static_cast<int>(kind)];
                if (kind == CommandKind::kRefresh) ++stats_.refreshes;
                const int64_t now = now_;
                now_ = cycle;
                record(kind, 0, bank_group, bank, row, column);
                now_ = now;
              },
          .internal_bytes = {}};
}

PimBlockResult Controller::serve_pim(const PimBlock& block, int64_t arrival,
                                     const PimInternalBytesSink& internal_bytes) {
  std::vector<int64_t> no_requests;  // nothing is waiting: no burst completes
  if (next_waiting_ < waiting_.size() || !queue_.empty() || !transactions_.empty()) {
    throw_runtime({}, "PIM work reached a DRAM controller with host bursts still queued");
  }
  if (config_.organization.ranks != 1 || config_.controller.refresh_per_bank) {
    throw_runtime({}, "PIM work is modelled on one rank with all-bank refresh");
  }
  run_until(arrival, no_requests);
  PimControllerPort port = pim_port();
  if (internal_bytes) {
    port.internal_bytes = [this, &internal_bytes](int64_t cycle, int64_t bytes) {
      internal_bytes(channel_, cycle, bytes);
    };
  }
  const PimBlockResult result = pim_.run(block, arrival, port);
  // The sequencer refreshed on the rank's schedule: what falls due next is known afresh.
  refresh_due_.ranks = 0;
  next_refresh_due_ = next_refresh_cycle_.front();
  if (config_.controller.refresh) update_refresh_due();
  return result;
}

void Controller::simulate(int64_t limit, bool idle_refresh,
                          std::vector<int64_t>& request_completion, bool more_coming) {
  if (pim_.in_pim_mode() && next_waiting_ < waiting_.size() &&
      waiting_[next_waiting_].arrival_cycle < limit) {
    // Host traffic in PIM mode: the device leaves it when the first burst arrives.
    PimControllerPort port = pim_port();
    pim_.leave_mode(waiting_[next_waiting_].arrival_cycle, port);
  }
  const bool refresh_enabled = config_.controller.refresh;
  const bool keep_going = idle_refresh && refresh_enabled;
  while ((next_waiting_ < waiting_.size() || !queue_.empty() || !transactions_.empty() ||
          keep_going) &&
         now_ < limit) {
    while (next_waiting_ < waiting_.size() && waiting_[next_waiting_].arrival_cycle <= now_ &&
           can_enter(waiting_[next_waiting_])) {
      if (staged_) {
        transactions_.add(waiting_[next_waiting_++]);
      } else {
        queue_.push_back(waiting_[next_waiting_++]);
      }
    }
    // The next burst may be needed from this cycle on: decide only once it has been added.
    if (more_coming && next_waiting_ == waiting_.size()) break;
    const int64_t next_refresh = !refresh_enabled                      ? kNever
                                 : config_.controller.refresh_per_bank ? update_bank_refresh_due()
                                                                       : update_refresh_due();
    if (lone_bursts_ && refresh_due_.any() && idle_with_open_pages()) {
      refresh_while_idle(limit, request_completion);
      continue;
    }
    // The fast paths, off in the reference that decides every command alone, apply while no
    // refresh work is due, up to the next refresh.
    if (column_runs_ && !refresh_due_.any()) {
      const int64_t stop = std::min(limit, next_refresh);
      const bool nothing_waiting = next_waiting_ == waiting_.size();
      if (idle_with_open_pages()) {
        // Nothing queued and open pages: the scheduler has nothing to offer until the next
        // refresh falls due (the jedec backend's catch-up between requests, mostly).
        now_ = std::max(now_ + 1, stop);
        continue;
      }
      if (lone_bursts_ && !more_coming && nothing_waiting && queue_.size() == 1 &&
          serve_lone_burst(stop, request_completion)) {
        continue;
      }
      if (issue_column_run(stop, more_coming, request_completion)) continue;
    }

    const SchedulerDecision decision = decide();
    // With command queues, one burst moves on per cycle, after the command (DRAMsim3's
    // Controller::ClockTick); the last requests' writes are flushed once none can follow.
    const bool flush_writes = !idle_refresh && next_waiting_ == waiting_.size();
    if (decision.issue_now) {
      // Judged before the command clears the refresh work it may complete.
      const bool ask_again =
          config_.organization.dual_command_issue && second_choice_may_differ(decision);
      issue(decision, request_completion);
      if (ask_again) {
        // HBM: the scheduler's next choice goes out in the same cycle if it takes the other
        // command bus (DRAMsim3's Controller::ClockTick does the same).
        if (const SchedulerDecision second = decide();
            second.issue_now && is_column(second.kind) != is_column(decision.kind)) {
          issue(second, request_completion);
        }
      }
      if (staged_) transactions_.move_one(queue_, flush_writes);
      ++now_;  // one command per cycle on each command bus
      continue;
    }
    if (staged_ && transactions_.move_one(queue_, flush_writes)) {
      ++now_;
      continue;
    }
    int64_t next_event = decision.next_ready;
    if (next_waiting_ < waiting_.size() && can_enter(waiting_[next_waiting_])) {
      next_event = std::min(next_event, waiting_[next_waiting_].arrival_cycle);
    }
    next_event = std::min(next_event, next_refresh);
    now_ = std::max(now_ + 1, std::min(next_event, limit));
  }
}

void Controller::refresh_while_idle(int64_t limit, std::vector<int64_t>& request_completion) {
  // Until more refresh work falls due (the loop would mark it first) or the limit.
  while (refresh_due_.any() && now_ < std::min(limit, next_refresh_due_)) {
    const SchedulerDecision decision = FrFcfsScheduler::refresh(banks_, now_, refresh_due_);
    if (decision.issue_now) {
      issue(decision, request_completion);
      ++now_;
    } else {
      now_ = std::max(now_ + 1, std::min({decision.next_ready, next_refresh_due_, limit}));
    }
  }
}

int64_t Controller::update_refresh_due() {
  if (now_ < next_refresh_due_) return next_refresh_due_;
  int64_t next = kNever;
  for (size_t rank = 0; rank < next_refresh_cycle_.size(); ++rank) {
    const RankMask bit = RankMask{1} << rank;
    if (refresh_due_.ranks & bit) continue;
    if (now_ >= next_refresh_cycle_[rank]) {
      refresh_due_.ranks |= bit;
    } else {
      next = std::min(next, next_refresh_cycle_[rank]);
    }
  }
  next_refresh_due_ = next;
  return next;
}

int64_t Controller::update_bank_refresh_due() {
  const int64_t interval = config_.timing.tREFIb;
  if (now_ >= next_bank_refresh_cycle_) {
    const int64_t fallen = (now_ - next_bank_refresh_cycle_) / interval + 1;
    bank_refreshes_waiting_ += fallen;
    next_bank_refresh_cycle_ += fallen * interval;
  }
  if (bank_refreshes_waiting_ > 0) refresh_due_.bank = next_refresh_bank_;
  return next_bank_refresh_cycle_;
}

SchedulerDecision Controller::decide() {
  if (refresh_due_.any()) return decide_while_refreshing();
  return config_.controller.bank_round_robin ? round_robin_.decide(queue_, banks_, now_)
                                             : scheduler_.decide(queue_, banks_, now_, kNothingDue);
}

SchedulerDecision Controller::decide_while_refreshing() {
  const SchedulerDecision refresh = FrFcfsScheduler::refresh(banks_, now_, refresh_due_);
  if (refresh.issue_now || refresh_due_.ranks == all_ranks_) return refresh;
  SchedulerDecision decision = config_.controller.bank_round_robin
                                   ? round_robin_.decide(queue_, banks_, now_, refresh_due_)
                                   : scheduler_.decide(queue_, banks_, now_, refresh_due_);
  decision.next_ready = std::min(decision.next_ready, refresh.next_ready);
  return decision;
}

void Controller::issue(const SchedulerDecision& decision,
                       std::vector<int64_t>& request_completion) {
  banks_.issue(decision.kind, decision.rank, decision.bank_group, decision.bank, decision.row,
               now_);
  ++stats_.commands[static_cast<int>(decision.kind)];
  int column = 0;
  if (decision.queue_index >= 0 &&
      (decision.kind == CommandKind::kRead || decision.kind == CommandKind::kWrite)) {
    column = queue_[decision.queue_index].address.column;
  }
  record(decision.kind, decision.rank, decision.bank_group, decision.bank, decision.row, column);

  switch (decision.kind) {
    case CommandKind::kRefresh:
      ++stats_.refreshes;
      refresh_due_.ranks &= ~(RankMask{1} << decision.rank);
      next_refresh_cycle_[static_cast<size_t>(decision.rank)] += config_.timing.tREFI;
      next_refresh_due_ =
          std::min(next_refresh_due_, next_refresh_cycle_[static_cast<size_t>(decision.rank)]);
      break;
    case CommandKind::kRefreshBank: {
      ++stats_.refreshes;
      --bank_refreshes_waiting_;
      refresh_due_.bank = -1;
      // DRAMsim3's order (refresh.cc): bank groups turn fastest, then banks, then ranks.
      const DramOrganization& org = config_.organization;
      BankCoordinates next = org.bank_coordinates(next_refresh_bank_);
      if (++next.bank_group == org.bank_groups) {
        next.bank_group = 0;
        if (++next.bank == org.banks_per_group) {
          next.bank = 0;
          next.rank = (next.rank + 1) % org.ranks;
        }
      }
      next_refresh_bank_ = org.flat_bank(next.rank, next.bank_group, next.bank);
      break;
    }
    case CommandKind::kActivate:
    case CommandKind::kPrecharge:
    case CommandKind::kRead:
    case CommandKind::kWrite:
      // A refresh's PRE serves no burst.
      if (decision.queue_index >= 0) {
        advance_burst(decision.kind, static_cast<size_t>(decision.queue_index),
                      request_completion);
      }
      break;
  }
}

void Controller::record(CommandKind kind, int rank, int bank_group, int bank, int64_t row,
                        int column) {
  if (!config_.controller.record_commands) return;
  Command command{.cycle = now_,
                  .kind = kind,
                  .channel = channel_,
                  .pseudo_channel = pseudo_channel_,
                  .rank = rank,
                  .bank_group = bank_group,
                  .bank = bank,
                  .column = column};
  if (kind != CommandKind::kPrecharge && kind != CommandKind::kRefresh &&
      kind != CommandKind::kRefreshBank) {
    command.row = row;
  }
  if (kind == CommandKind::kRefresh) command.bank_group = command.bank = 0;
  commands_.push_back(command);
}

bool Controller::serve_lone_burst(int64_t stop_cycle, std::vector<int64_t>& request_completion) {
  const DramAddress address = queue_.front().address;
  const CommandKind column = queue_.front().is_write ? CommandKind::kWrite : CommandKind::kRead;
  for (bool issued = false;; issued = true) {
    const int64_t open_row = banks_.open_row(address.rank, address.bank_group, address.bank);
    const CommandKind kind = open_row == address.row  ? column
                             : open_row == kClosedRow ? CommandKind::kActivate
                                                      : CommandKind::kPrecharge;
    const int64_t cycle =
        std::max(now_, banks_.earliest(kind, address.rank, address.bank_group, address.bank));
    if (cycle >= stop_cycle) return issued;
    // The loop would wait until `cycle` (nothing else can happen before it) and issue there,
    // then move on a cycle.
    now_ = cycle;
    banks_.issue(kind, address.rank, address.bank_group, address.bank, address.row, now_);
    ++stats_.commands[static_cast<int>(kind)];
    record(kind, address.rank, address.bank_group, address.bank, address.row,
           kind == column ? address.column : 0);
    advance_burst(kind, 0, request_completion);
    ++now_;
    if (kind == column) return true;
  }
}

bool Controller::issue_column_run(int64_t stop_cycle, bool more_coming,
                                  std::vector<int64_t>& request_completion) {
  // A run starts with the oldest burst, a row hit: plan_column_run's own first test, made here
  // because most calls fail it (a row miss waits through its PRE and ACT).
  if (queue_.empty()) return false;
  const DramAddress& front = queue_.front().address;
  if (banks_.open_row(front.rank, front.bank_group, front.bank) != front.row) return false;
  const std::span<const QueuedBurst> waiting(waiting_.data() + next_waiting_,
                                             waiting_.size() - next_waiting_);
  const ColumnRun run =
      plan_column_run({.banks = banks_,
                       .queue = queue_,
                       .waiting = waiting,
                       .queue_depth = config_.controller.queue_depth,
                       .page_policy = config_.controller.page_policy,
                       .now = now_,
                       .stop_cycle = stop_cycle,
                       .more_bursts_follow = more_coming,
                       .dual_command_issue = config_.organization.dual_command_issue});
  if (run.count == 0) return false;
  const DramAddress address = queue_.front().address;
  const int64_t latency =
      (run.kind == CommandKind::kRead ? config_.timing.tCL : config_.timing.tWL) + burst_cycles_;
  const auto queued = static_cast<int64_t>(queue_.size());
  for (int64_t k = 0; k < run.count; ++k) {
    const QueuedBurst& burst =
        k < queued ? queue_[static_cast<size_t>(k)] : waiting[static_cast<size_t>(k - queued)];
    now_ = run.first_cycle + k * run.spacing_cycles;
    record(run.kind, address.rank, address.bank_group, address.bank, address.row,
           burst.address.column);
    complete_column(burst, now_ + latency, request_completion);
  }
  // Each column command raises the bank state's limits to its own cycle plus a constant, so
  // the last one of the run leaves them where issuing all of them would.
  banks_.issue(run.kind, address.rank, address.bank_group, address.bank, address.row, now_);
  stats_.commands[static_cast<int>(run.kind)] += run.count;
  const int64_t from_queue = std::min(run.count, queued);
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(from_queue));
  next_waiting_ += static_cast<size_t>(run.count - from_queue);
  ++now_;  // one command per cycle on the command bus
  return true;
}

void Controller::complete_column(const QueuedBurst& burst, int64_t data_end,
                                 std::vector<int64_t>& request_completion) {
  const int64_t bytes = burst_bytes_;
  if (burst.is_write) {
    ++stats_.write_bursts;
    stats_.bytes_written += bytes;
  } else {
    ++stats_.read_bursts;
    stats_.bytes_read += bytes;
  }
  if (burst.precharged_for) {
    ++stats_.row_conflicts;
  } else if (burst.activated_for) {
    ++stats_.row_misses;
  } else {
    ++stats_.row_hits;
  }
  stats_.total_burst_latency_cycles += data_end - burst.arrival_cycle;
  stats_.first_arrival_cycle = stats_.first_arrival_cycle < 0
                                   ? burst.arrival_cycle
                                   : std::min(stats_.first_arrival_cycle, burst.arrival_cycle);
  stats_.last_completion_cycle = std::max(stats_.last_completion_cycle, data_end);
  int64_t& completion = request_completion[static_cast<size_t>(burst.request_id)];
  completion = std::max(completion, data_end);
}

}  // namespace polyarch::sim::dram
