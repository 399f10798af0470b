#include "sim/memory/dram/controller.h"

#include <algorithm>

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
      waiting_.begin(), waiting_.end(),
      [](const QueuedBurst& a, const QueuedBurst& b) { return a.arrival_cycle < b.arrival_cycle; });
  const auto depth = static_cast<size_t>(config_.controller.queue_depth);
  const bool refresh_enabled = config_.controller.refresh;
  size_t next_waiting = 0;
  while (next_waiting < waiting_.size() || !queue_.empty()) {
    while (queue_.size() < depth && next_waiting < waiting_.size() &&
           waiting_[next_waiting].arrival_cycle <= now_) {
      queue_.push_back(waiting_[next_waiting++]);
    }
    if (refresh_enabled && now_ >= next_refresh_cycle_) refresh_due_ = true;

    const SchedulerDecision decision = scheduler_.decide(queue_, banks_, now_, refresh_due_);
    if (decision.issue_now) {
      issue(decision, request_completion);
      ++now_;  // one command per cycle on the command bus
      continue;
    }
    int64_t next_event = decision.next_ready;
    if (queue_.size() < depth && next_waiting < waiting_.size()) {
      next_event = std::min(next_event, waiting_[next_waiting].arrival_cycle);
    }
    if (refresh_enabled && !refresh_due_) next_event = std::min(next_event, next_refresh_cycle_);
    now_ = std::max(now_ + 1, next_event);
  }
  waiting_.clear();
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
