#pragma once
// DRAMsim3's command selection (command_queue.cc, GetCommandToIssue): the banks' command queues
// are visited round-robin, starting after the bank that issued last, and the first bank with a
// command ready issues it. Within a bank the bursts are taken in queue order: the first whose
// command (RD/WR to the open row, ACT to a closed bank, PRE of another row) may issue now. A
// row is closed only for the bank's first burst and only while no queued burst of the bank
// hits it. With several ranks the banks are visited rank after rank, and the banks of a rank
// whose refresh is due, or the bank whose per-bank refresh is, are passed over. Open page only;
// refresh is the FR-FCFS scheduler's (scheduler.h).
#include <span>

#include "sim/memory/dram/channel_state.h"
#include "sim/memory/dram/config.h"
#include "sim/memory/dram/scheduler.h"

namespace polyarch::sim::dram {

class BankRoundRobinScheduler {
 public:
  explicit BankRoundRobinScheduler(const DramConfig& config);

  SchedulerDecision decide(std::span<const QueuedBurst> queue, const ChannelState& banks,
                           int64_t now, const RefreshDue& refresh_due = {});

 private:
  DramOrganization organization_;  // numbers the banks visited
  int bank_count_;  // over all ranks
  int last_bank_;   // the bank that issued last; the next visit starts after it
};

}  // namespace polyarch::sim::dram
