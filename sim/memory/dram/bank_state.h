#pragma once
// The controller's view of one pseudo-channel: which row each bank has open and, for every
// command kind, the earliest cycle the timing constraints let it issue at each scope (bank,
// bank group, pseudo-channel). Issuing a command pushes those cycles forward, the way
// Ramulator's timing tables do. The checker (checker.h) verifies the result independently.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sim/memory/dram/command.h"
#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

inline constexpr int64_t kClosedRow = -1;

class BankState {
 public:
  explicit BankState(const DramConfig& config);

  // Earliest cycle at which `kind` may issue to (bank_group, bank), from timing alone; whether
  // the bank is in the right state (open row, all banks closed for REF) is the caller's rule.
  // Inline: the schedulers ask it for every candidate command.
  int64_t earliest(CommandKind kind, int bank_group, int bank) const;
  // Inline dispatch to one small function per kind: the lone-burst path issues them per burst.
  void issue(CommandKind kind, int bank_group, int bank, int64_t row, int64_t cycle) {
    switch (kind) {
      case CommandKind::kActivate: activate(bank_group, bank, row, cycle); return;
      case CommandKind::kPrecharge: precharge(bank_group, bank, cycle); return;
      case CommandKind::kRead:
      case CommandKind::kWrite: read_or_write(kind, bank_group, bank, cycle); return;
      case CommandKind::kRefresh: refresh(cycle); return;
      case CommandKind::kRefreshBank: refresh_bank(bank_group, bank, cycle); return;
    }
  }
  void activate(int bank_group, int bank, int64_t row, int64_t cycle);
  void precharge(int bank_group, int bank, int64_t cycle);
  void read_or_write(CommandKind kind, int bank_group, int bank, int64_t cycle);
  void refresh(int64_t cycle);  // all-bank REF
  void refresh_bank(int bank_group, int bank, int64_t cycle);
  // How many cycles a column command (RD or WR) of kind `next` must wait after one of kind
  // `previous`, to a bank of the same bank group or of another one: the distance issue() puts
  // between them (tCCD, the data bus's tBL, read-to-write turnaround, tWTR).
  int64_t column_gap(CommandKind previous, CommandKind next, bool same_bank_group) const {
    const int64_t channel = channel_gap_[column_index(previous)][column_index(next)];
    if (!same_bank_group) return channel;
    return std::max(channel, group_gap_[column_index(previous)][column_index(next)]);
  }
  static constexpr int column_index(CommandKind kind) { return kind == CommandKind::kWrite; }

  int64_t open_row(int bank_group, int bank) const { return bank_at(bank_group, bank).open_row; }
  int open_bank_count() const { return open_banks_; }
  // The open banks, bit bank_group * banks_per_group() + bank each (kMaxBanksPerRank bounds
  // them): the refresh scheduler walks only these.
  uint64_t open_banks() const { return open_mask_; }
  int bank_groups() const { return bank_groups_; }
  int banks_per_group() const { return banks_per_group_; }

 private:
  using NextCycle = std::array<int64_t, kCommandKindCount>;
  struct Bank {
    int64_t open_row = kClosedRow;
    NextCycle next{};
  };
  static void raise(NextCycle& next, CommandKind kind, int64_t cycle);
  // column_gap()'s two scopes: the whole pseudo-channel and the bank group; 0 where a column
  // command puts no distance at that scope. Computed once into the tables below, indexed
  // [previous][next] by column_index(): every column command reads them.
  int64_t channel_column_gap(CommandKind previous, CommandKind next) const;
  int64_t group_column_gap(CommandKind previous, CommandKind next) const;
  using ColumnGaps = std::array<std::array<int64_t, 2>, 2>;
  ColumnGaps channel_gap_{};
  ColumnGaps group_gap_{};
  const Bank& bank_at(int bank_group, int bank) const {
    return banks_[bank_group * banks_per_group_ + bank];
  }
  Bank& bank_at(int bank_group, int bank) { return banks_[bank_group * banks_per_group_ + bank]; }

  DramTiming timing_;
  int64_t burst_cycles_ = 0;
  int bank_groups_ = 0;
  int banks_per_group_ = 0;
  int open_banks_ = 0;
  uint64_t open_mask_ = 0;
  std::vector<Bank> banks_;
  std::vector<NextCycle> group_next_;
  NextCycle channel_next_{};
  // Cycles of the last four ACTs, oldest first once full: the fifth waits tFAW after the first.
  std::array<int64_t, 4> recent_activates_{};
  int recent_activate_count_ = 0;
  int oldest_activate_ = 0;
  // The same for the last 32 ACTs when t32AW applies.
  std::vector<int64_t> activates_32_;
  size_t oldest_activate_32_ = 0;
};

inline int64_t BankState::earliest(CommandKind kind, int bank_group, int bank) const {
  const int k = static_cast<int>(kind);
  int64_t cycle = channel_next_[k];
  if (kind == CommandKind::kRefresh) return cycle;
  cycle = std::max({cycle, group_next_[bank_group][k], bank_at(bank_group, bank).next[k]});
  if (kind == CommandKind::kActivate && recent_activate_count_ == 4) {
    cycle = std::max(cycle, recent_activates_[oldest_activate_] + timing_.tFAW);
  }
  if (kind == CommandKind::kActivate && activates_32_.size() == 32) {
    cycle = std::max(cycle, activates_32_[oldest_activate_32_] + timing_.t32AW);
  }
  return cycle;
}

}  // namespace polyarch::sim::dram
