#include "sim/memory/dram/controller.h"

#include <algorithm>
#include <deque>

namespace polyarch::sim::dram {

Controller::Controller(const DramConfig& config, int channel, int pseudo_channel)
    : config_(config),
      channel_(channel),
      pseudo_channel_(pseudo_channel),
      banks_(config),
      scheduler_(config),
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

bool Controller::has_queue_room() const {
  const size_t held =
      config_.controller.command_queue_depth > 0 ? transactions_.size() : queue_.size();
  return held + (waiting_.size() - next_waiting_) <
         static_cast<size_t>(config_.controller.queue_depth);
}

bool Controller::move_one_transaction() {
  const ControllerOptions& options = config_.controller;
  const auto capacity = static_cast<size_t>(options.command_queue_depth);
  for (auto candidate = transactions_.begin(); candidate != transactions_.end(); ++candidate) {
    size_t queued = queue_.size();
    if (options.command_queue_per_bank) {
      queued = static_cast<size_t>(std::count_if(
          queue_.begin(), queue_.end(), [&](const QueuedBurst& burst) {
            return burst.address.bank_group == candidate->address.bank_group &&
                   burst.address.bank == candidate->address.bank;
          }));
    }
    if (queued >= capacity) continue;
    queue_.push_back(*candidate);
    transactions_.erase(candidate);
    return true;
  }
  return false;
}

void Controller::simulate(int64_t limit, bool idle_refresh,
                          std::vector<int64_t>& request_completion) {
  const auto depth = static_cast<size_t>(config_.controller.queue_depth);
  const bool refresh_enabled = config_.controller.refresh;
  const bool keep_going = idle_refresh && refresh_enabled;
  // With command queues, arrivals enter the transaction queue and move on one per cycle.
  const bool staged = config_.controller.command_queue_depth > 0;
  const auto enter = [&](const QueuedBurst& burst) {
    if (staged) {
      transactions_.push_back(burst);
    } else {
      queue_.push_back(burst);
    }
  };
  const auto held = [&] { return staged ? transactions_.size() : queue_.size(); };
  while ((next_waiting_ < waiting_.size() || !queue_.empty() || !transactions_.empty() ||
          keep_going) &&
         now_ < limit) {
    while (held() < depth && next_waiting_ < waiting_.size() &&
           waiting_[next_waiting_].arrival_cycle <= now_) {
      enter(waiting_[next_waiting_++]);
    }
    if (refresh_enabled && now_ >= next_refresh_cycle_) refresh_due_ = true;

    const SchedulerDecision decision = scheduler_.decide(queue_, banks_, now_, refresh_due_);
    if (decision.issue_now) {
      issue(decision, request_completion);
      if (staged) move_one_transaction();  // after the command, as DRAMsim3's ClockTick
      ++now_;  // one command per cycle on the command bus
      continue;
    }
    if (staged && move_one_transaction()) {
      ++now_;
      continue;
    }
    int64_t next_event = decision.next_ready;
    if (held() < depth && next_waiting_ < waiting_.size()) {
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
