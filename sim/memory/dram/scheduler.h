#pragma once
// FR-FCFS command selection for one pseudo-channel (Rixner et al., "Memory Access Scheduling",
// ISCA 2000): among the commands that may issue this cycle, column commands to open rows (row
// hits) go first, oldest request first; then row commands (ACT, PRE), oldest request first.
// A row is not closed for a request while an older queued request still hits it. Under the
// closed-page policy a row with no queued hits is precharged as soon as timing allows. While a
// refresh is due, the PREs that close every bank of its rank and then the REF go first; the
// other ranks' bursts are served meanwhile (DRAMsim3's controller does the same).
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "sim/memory/dram/address_mapping.h"
#include "sim/memory/dram/bank_state.h"
#include "sim/memory/dram/channel_state.h"
#include "sim/memory/dram/command.h"
#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

// One burst waiting in a controller queue, in arrival order.
struct QueuedBurst {
  int64_t request_id = 0;
  int64_t arrival_cycle = 0;
  DramAddress address;
  // The flags last: 64 bytes, not 72 with one before the address (a stream copies each burst
  // into its controller's queue).
  bool is_write = false;
  bool activated_for = false;   // an ACT was issued on its behalf (a row miss)
  bool precharged_for = false;  // a PRE closed another row for it (a row conflict)
};

inline constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

// Ranks with a refresh due, one bit per rank.
using RankMask = uint32_t;
inline bool rank_in(RankMask mask, int rank) { return ((mask >> rank) & 1U) != 0; }

// The refresh work due: whole ranks' all-bank refreshes, and at most one bank's per-bank
// refresh. The bursts of what is due wait until it has been refreshed.
struct RefreshDue {
  RankMask ranks = 0;
  // Per-bank refresh: the bank as DramOrganization::flat_bank numbers it; -1: none.
  int bank = -1;
  bool any() const { return ranks != 0 || bank >= 0; }
};

struct SchedulerDecision {
  bool issue_now = false;
  CommandKind kind = CommandKind::kActivate;
  int rank = 0;
  int bank_group = 0;
  int bank = 0;
  int64_t row = 0;
  int queue_index = -1;         // the burst served or acted for; -1 for refresh work
  int64_t next_ready = kNever;  // when nothing issues now: earliest cycle something could
};

class FrFcfsScheduler {
 public:
  explicit FrFcfsScheduler(const DramConfig& config);

  // The command to issue now for the bursts that no refresh in `refresh_due` holds (the
  // refresh work is refresh()'s).
  SchedulerDecision decide(std::span<const QueuedBurst> queue, const ChannelState& banks,
                           int64_t now, const RefreshDue& refresh_due);
  // The PREs and REFs the ranks in `refresh_due` need, in rank order, then the PRE or REFpb of
  // its bank.
  static SchedulerDecision refresh(const ChannelState& banks, int64_t now,
                                   const RefreshDue& refresh_due);

 private:
  int bank_index(const DramAddress& address) const {
    return organization_.flat_bank(address.rank, address.bank_group, address.bank);
  }
  bool held(const DramAddress& address, const RefreshDue& due) const {
    return rank_in(due.ranks, address.rank) || bank_index(address) == due.bank;
  }

  PagePolicy page_policy_;
  DramOrganization organization_;  // numbers the banks of marks_ and the refresh due
  // What one decide() noted per bank of every rank. A bank's marks belong to the decision
  // numbered `decision` and count as fresh (no hit, nothing offered) in any later one, so a
  // decision over a short queue never clears the whole array.
  static constexpr uint8_t kReadHitOffered = 1;
  static constexpr uint8_t kWriteHitOffered = 2;
  static constexpr uint8_t kRowCommandOffered = 4;
  struct BankMarks {
    uint64_t decision = 0;
    int oldest_hit = 0;      // queue index of the oldest burst that hits the open row, or size
    uint8_t considered = 0;  // candidates an older queued burst already offered
  };
  BankMarks& marks_of(int bank) {
    BankMarks& marks = marks_[static_cast<size_t>(bank)];
    if (marks.decision != decision_count_) {
      marks = {.decision = decision_count_, .oldest_hit = queue_size_, .considered = 0};
    }
    return marks;
  }
  std::vector<BankMarks> marks_;
  uint64_t decision_count_ = 0;  // decide() calls so far; marks carry the number of theirs
  int queue_size_ = 0;           // of the decision in progress
};

}  // namespace polyarch::sim::dram
