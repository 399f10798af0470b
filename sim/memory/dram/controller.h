#pragma once
// The memory controller of one pseudo-channel and its ranks: a request queue of `queue_depth`
// bursts filled in arrival order, FR-FCFS scheduling (scheduler.h), each rank's all-bank
// refresh every tREFI (staggered over the ranks or not), one command per command-clock cycle (on
// HBM one row and one column command: DramOrganization::dual_command_issue). Time
// advances from one event to the next (an arrival, a refresh falling due, the earliest cycle a
// waiting command may issue), so idle stretches cost nothing, and runs of row hits are issued whole
// where the scheduler could choose nothing else (column_run.h): the same commands at the same
// cycles as one decision per command.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/memory/dram/channel_state.h"
#include "sim/memory/dram/command.h"
#include "sim/memory/dram/config.h"
#include "sim/memory/dram/pim_sequencer.h"
#include "sim/memory/dram/round_robin_scheduler.h"
#include "sim/memory/dram/scheduler.h"
#include "sim/memory/dram/stats.h"
#include "sim/memory/dram/transaction_queues.h"

namespace polyarch::sim::dram {

class Controller {
 public:
  // `column_runs`: issue runs of row hits whole (column_run.h); false asks the scheduler for
  // every command (the reference the fast path is tested against).
  Controller(const DramConfig& config, int channel, int pseudo_channel, bool column_runs = true);

  // Bursts may be added in any order; they enter the queue by arrival cycle (then call order).
  void add(const QueuedBurst& burst) { waiting_.push_back(burst); }
  // Serves every added burst. `request_completion[request_id]` is raised to the cycle its
  // burst's data transfer ends. May be called again after more add() calls; time continues.
  void run(std::vector<int64_t>& request_completion);
  // Serves the added bursts while more are still to be added (arriving no earlier than the ones
  // added, in order behind them): stops before the first cycle at which it would take a burst
  // not added yet, so feeding a long stream in parts gives what adding it whole and run() give,
  // without holding every burst of it at once.
  void run_while_fed(std::vector<int64_t>& request_completion);
  // Simulates the cycles before `cycle`, refreshing on schedule even while idle, so that bursts
  // can be added one at a time as they arrive (trace replay). Bursts added from here on must
  // arrive no earlier than `cycle`.
  void run_until(int64_t cycle, std::vector<int64_t>& request_completion);
  // PIM work on this pseudo-channel's banks (pim_sequencer.h), arriving at `arrival` when every
  // added burst has been served. Bursts added afterwards first take the device out of PIM mode.
  // `internal_bytes` (may be empty) receives each column command's bytes between banks and PUs.
  PimBlockResult serve_pim(const PimBlock& block, int64_t arrival,
                           const PimInternalBytesSink& internal_bytes = {});
  const PimCounters& pim_counters() const { return pim_.counters(); }
  // Whether a burst of this direction added now would find a free queue entry.
  bool has_queue_room(bool is_write) const;

  const std::vector<Command>& commands() const { return commands_; }
  const DramStats& stats() const { return stats_; }
  int64_t now() const { return now_; }

 private:
  // The loop of run() and run_until(): stops at `limit`, or when no burst is left unless
  // `idle_refresh` keeps it going (refreshes falling due while the queue is empty).
  // `more_coming`: stop once every added burst has entered the queue (run_while_fed).
  void simulate(int64_t limit, bool idle_refresh, std::vector<int64_t>& request_completion,
                bool more_coming = false);
  // Whether the next waiting burst may enter its queue now.
  bool can_enter(const QueuedBurst& burst) const;
  void issue(const SchedulerDecision& decision, std::vector<int64_t>& request_completion);
  // Issues the run of column commands plan_column_run() finds from now_, up to `stop_cycle`;
  // false (nothing issued) when there is none.
  bool issue_column_run(int64_t stop_cycle, bool more_coming,
                        std::vector<int64_t>& request_completion);
  // One burst alone in the queue, nothing waiting, no refresh due, FR-FCFS with open pages: the
  // scheduler can only choose that burst's PRE, ACT or column command, each as soon as timing
  // allows, so they are issued here without asking it. Issues them in order while each falls
  // before `stop_cycle` (the next refresh or the caller's limit); true if it issued any. The
  // loop then starts its next cycle afresh (a refresh may have fallen due meanwhile); with
  // nothing issued it goes on as if this had not been asked.
  bool serve_lone_burst(int64_t stop_cycle, std::vector<int64_t>& request_completion);
  // Refresh work due on an idle FR-FCFS controller with open pages and all-bank refresh: the
  // scheduler can choose only the PREs closing the due ranks' banks and their REFs, so each
  // cycle its refresh() choice is issued at once (or time jumps to when one is ready), without
  // the loop's bookkeeping per command. Stops when that work is done, more falls due, or at
  // `limit`.
  void refresh_while_idle(int64_t limit, std::vector<int64_t>& request_completion);
  // run() for one added burst that has arrived, reaching an idle controller that serves lone
  // bursts: it enters the queue and is served as the loop would, without the loop's entry and
  // its second cycle. False (nothing done) in every other case.
  bool serve_alone(std::vector<int64_t>& request_completion);
  void record(CommandKind kind, int rank, int bank_group, int bank, int64_t row, int column);
  // What a command for queue_[index] does to that burst: an ACT or PRE marks it (a miss or a
  // conflict), a RD or WR completes it and takes it out of the queue.
  // Inline: a lone burst's PRE, ACT and column command each come here.
  void advance_burst(CommandKind kind, size_t index, std::vector<int64_t>& request_completion) {
    QueuedBurst& burst = queue_[index];
    if (kind == CommandKind::kActivate) {
      burst.activated_for = true;
    } else if (kind == CommandKind::kPrecharge) {
      burst.precharged_for = true;
    } else {
      const int64_t latency = kind == CommandKind::kRead ? config_.timing.tCL : config_.timing.tWL;
      const QueuedBurst done = burst;
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
      complete_column(done, now_ + latency + burst_cycles_, request_completion);
    }
  }
  // The idle fast paths' condition: nothing queued or waiting, FR-FCFS with open pages, so the
  // scheduler could offer only refresh work.
  bool idle_with_open_pages() const {
    return idle_until_refresh_ && queue_.empty() && next_waiting_ == waiting_.size();
  }
  // The scheduler's decision for this cycle (the refresh work first while some is due).
  SchedulerDecision decide();
  // The decision for this cycle while refresh work is due: that work first, then the bursts it
  // does not hold.
  SchedulerDecision decide_while_refreshing();
  // Dual command issue: whether asking the scheduler again after `first` went out this cycle can
  // name a command for the other bus. FR-FCFS picks a row command (ACT, PRE) only when no row hit
  // may issue, and a command only delays the others (an ACT's row is readable tRCD >= 1 later),
  // so after a row command its next choice is again a row command, unless refresh work came first
  // (asked before `first` issues). Only the queue's bursts give column commands: with it empty
  // (refresh work while idle) the next choice is a row command too. Asking anyway would scan
  // the queue again for every ACT and PRE.
  bool second_choice_may_differ(const SchedulerDecision& first) const {
    return !queue_.empty() &&
           (is_column(first.kind) || refresh_due_.any() || config_.controller.bank_round_robin);
  }
  // Marks the refresh work that falls due by now_; returns the earliest cycle more falls due
  // (kNever: none before what is due has been done).
  int64_t update_refresh_due();
  int64_t update_bank_refresh_due();  // the same under per-bank refresh
  void complete_column(const QueuedBurst& burst, int64_t data_end,
                       std::vector<int64_t>& request_completion);
  // The controller's state as the PIM sequencer drives it.
  PimControllerPort pim_port();

  DramConfig config_;
  int64_t burst_bytes_;   // config_.bytes_per_burst(), needed per burst
  int64_t burst_cycles_;  // config_.burst_cycles()
  int channel_;
  int pseudo_channel_;
  ChannelState banks_;
  FrFcfsScheduler scheduler_;
  BankRoundRobinScheduler round_robin_;  // ControllerOptions::bank_round_robin only
  std::vector<QueuedBurst> waiting_;     // not yet in the queue
  size_t next_waiting_ = 0;              // waiting_[next_waiting_...] have not entered the queue
  std::vector<QueuedBurst> queue_;       // arrival order; what the scheduler sees
  bool staged_;                          // command queues behind transaction queues
  bool column_runs_;                     // plan_column_run() applies (FR-FCFS, one queue)
  // Fast paths like column runs, off in the reference that decides every command alone: an
  // idle FR-FCFS controller with open pages issues nothing until a refresh falls due, and
  // serve_lone_burst() applies.
  bool idle_until_refresh_;
  bool lone_bursts_;
  TransactionQueues transactions_;  // staged_ only
  PimSequencer pim_;
  std::vector<Command> commands_;
  DramStats stats_;
  int64_t now_ = 0;
  std::vector<int64_t> next_refresh_cycle_;  // per rank
  // The earliest of them among the ranks not yet due (kNever: every rank is due).
  int64_t next_refresh_due_ = 0;
  RefreshDue refresh_due_;
  RankMask all_ranks_ = 0;
  // Per-bank refresh: when the next bank falls due, how many have fallen due and wait, and
  // the bank whose turn is next (RefreshDue::bank's numbering).
  int64_t next_bank_refresh_cycle_ = 0;
  int64_t bank_refreshes_waiting_ = 0;
  int next_refresh_bank_ = 0;
};

}  // namespace polyarch::sim::dram
