#include "sim/memory/dram/controller.h"

#include <algorithm>

namespace polyarch::sim::dram {

Controller::Controller(const DramConfig& config, int channel, int pseudo_channel)
    : config_(config),
      channel_(channel),
      pseudo_channel_(pseudo_channel),
      banks_(config),
      scheduler_(config),
      round_robin_(config),
      staged_(config.controller.command_queue_depth > 0),
      transactions_(config.controller),
      next_refresh_cycle_(config.timing.tREFI) {
  queue_.reserve(static_cast<size_t>(config.controller.queue_depth));
}

void Controller::add(const QueuedBurst& burst) { waiting_.push_back(burst); }

void Controller::run(std::vector<int64_t>& request_completion) {
  std::stable_sort(
      waiting_.begin() + static_cast<std::ptrdiff_t>(next_waiting_), waiting_.end(),
      [](const QueuedBurst& a, const QueuedBurst& b) { return a.arrival_cycle < b.arrival_cycle; });
  simulate(kNever, false, request_completion);
  waiting_.clear();
  next_waiting_ = 0;
}

void Controller::run_until(int64_t cycle, std::vector<int64_t>& request_completion) {
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

void Controller::simulate(int64_t limit, bool idle_refresh,
                          std::vector<int64_t>& request_completion) {
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
    if (refresh_enabled && now_ >= next_refresh_cycle_) refresh_due_ = true;

    const SchedulerDecision decision = config_.controller.bank_round_robin && !refresh_due_
                                           ? round_robin_.decide(queue_, banks_, now_)
                                           : scheduler_.decide(queue_, banks_, now_, refresh_due_);
    // With command queues, one burst moves on per cycle, after the command (DRAMsim3's
    // Controller::ClockTick); the last requests' writes are flushed once none can follow.
    const bool flush_writes = !idle_refresh && next_waiting_ == waiting_.size();
    if (decision.issue_now) {
      issue(decision, request_completion);
      if (staged_) transactions_.move_one(queue_, flush_writes);
      ++now_;  // one command per cycle on the command bus
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
    if (refresh_enabled && !refresh_due_) next_event = std::min(next_event, next_refresh_cycle_);
    now_ = std::max(now_ + 1, std::min(next_event, limit));
  }
}

void Controller::issue(const SchedulerDecision& decision,
                       std::vector<int64_t>& request_completion) {
  banks_.issue(decision.kind, decision.bank_group, decision.bank, decision.row, now_);
  ++stats_.commands[static_cast<int>(decision.kind)];
  if (config_.controller.record_commands) {
    Command command{.cycle = now_,
                    .kind = decision.kind,
                    .channel = channel_,
                    .pseudo_channel = pseudo_channel_,
                    .bank_group = decision.bank_group,
                    .bank = decision.bank};
    if (decision.kind != CommandKind::kPrecharge && decision.kind != CommandKind::kRefresh) {
      command.row = decision.row;
    }
    if (decision.queue_index >= 0 &&
        (decision.kind == CommandKind::kRead || decision.kind == CommandKind::kWrite)) {
      command.column = queue_[decision.queue_index].address.column;
    }
    if (decision.kind == CommandKind::kRefresh) command.bank_group = command.bank = 0;
    commands_.push_back(command);
  }

  switch (decision.kind) {
    case CommandKind::kRefresh:
      ++stats_.refreshes;
      refresh_due_ = false;
      next_refresh_cycle_ += config_.timing.tREFI;
      break;
    case CommandKind::kActivate:
      if (decision.queue_index >= 0) queue_[decision.queue_index].activated_for = true;
      break;
    case CommandKind::kPrecharge:
      if (decision.queue_index >= 0) queue_[decision.queue_index].precharged_for = true;
      break;
    case CommandKind::kRead:
    case CommandKind::kWrite: {
      const int64_t latency =
          decision.kind == CommandKind::kRead ? config_.timing.tCL : config_.timing.tWL;
      const QueuedBurst burst = queue_[decision.queue_index];
      queue_.erase(queue_.begin() + decision.queue_index);
      complete_column(burst, now_ + latency + config_.burst_cycles(), request_completion);
      break;
    }
  }
}

void Controller::complete_column(const QueuedBurst& burst, int64_t data_end,
                                 std::vector<int64_t>& request_completion) {
  const int64_t bytes = config_.bytes_per_burst();
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
