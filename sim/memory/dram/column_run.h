#pragma once
// Fast-forward of a controller through a run of column commands. In a stream the oldest queued
// burst is usually a row hit followed by more hits to the same row: FR-FCFS then issues one RD
// (or WR) after another, each as soon as the previous one's tCCD / tBL spacing allows, and
// nothing else, for as long as no other queued burst could issue a command in between. Under
// those conditions the cycles of the whole run follow from the bank state alone (first at the
// earliest cycle the bank allows, then one column gap apart), so the controller can issue them
// without asking the scheduler cycle by cycle. The plan is exact, not an approximation: a run
// stops before any cycle at which the per-command path could have decided differently (another
// burst's command ready, a refresh falling due, the simulation's limit, a burst not yet arrived
// or not part of the run). What other queued bursts could do is bounded from below with the
// bank state at the run's start: a column command only pushes other column commands later (of
// its own rank and, through the data bus, of the others) and leaves ACT and PRE timing alone.
// SystemC-free.
#include <cstdint>
#include <span>

#include "sim/memory/dram/channel_state.h"
#include "sim/memory/dram/config.h"
#include "sim/memory/dram/scheduler.h"

namespace polyarch::sim::dram {

struct ColumnRun {
  int64_t count = 0;           // column commands of the run; 0: no run, ask the scheduler
  int64_t first_cycle = 0;     // cycle of the first one
  int64_t spacing_cycles = 0;  // distance between consecutive ones
  CommandKind kind = CommandKind::kRead;
};

struct ColumnRunContext {
  const ChannelState& banks;
  // The scheduler's queue (oldest first) and the bursts still waiting to enter it, in the order
  // they will enter; together, the order FR-FCFS would see them in.
  std::span<const QueuedBurst> queue;
  std::span<const QueuedBurst> waiting;
  int queue_depth = 0;
  PagePolicy page_policy = PagePolicy::kOpen;
  int64_t now = 0;
  // No command of the run may issue at or after this cycle (the next refresh, the end of the
  // simulated interval).
  int64_t stop_cycle = kNever;
  // More bursts will be added behind `waiting`: the run may not go where the queue would hold
  // one of them.
  bool more_bursts_follow = false;
  // HBM (DramOrganization::dual_command_issue): another burst's ACT or PRE would issue in the
  // same cycle as a column command of the run, so the run also stops at (not only before) the
  // first cycle one could.
  bool dual_command_issue = false;
};

// The run of column commands the FR-FCFS scheduler would issue next, one per burst, starting
// with the oldest queued burst; count 0 when that burst is not a row hit or another command
// could come first.
ColumnRun plan_column_run(const ColumnRunContext& context);

}  // namespace polyarch::sim::dram
