#pragma once
// One pseudo-channel's ranks as its controller sees them: each rank's banks and rank-level
// timing in its own BankState (bank_state.h), and the data bus the ranks share. A column
// command of one rank holds the other ranks' column commands off the bus for its burst plus,
// where the bus changes driver, tRTRS (a read after any other rank's burst, a write after
// another rank's read). ACT, PRE and REF of one rank leave the other ranks alone. The checker
// (checker.h) verifies the result independently.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "sim/memory/dram/bank_state.h"
#include "sim/memory/dram/command.h"
#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

class ChannelState {
 public:
  explicit ChannelState(const DramConfig& config);

  // Earliest cycle at which `kind` may issue to (rank, bank_group, bank), from timing alone.
  int64_t earliest(CommandKind kind, int rank, int bank_group, int bank) const {
    const int64_t cycle = ranks_[static_cast<size_t>(rank)].earliest(kind, bank_group, bank);
    if (single_rank_ || (kind != CommandKind::kRead && kind != CommandKind::kWrite)) return cycle;
    return std::max(cycle, bus_next_[static_cast<size_t>(rank)][bus_index(kind)]);
  }
  void issue(CommandKind kind, int rank, int bank_group, int bank, int64_t row, int64_t cycle) {
    ranks_[static_cast<size_t>(rank)].issue(kind, bank_group, bank, row, cycle);
    if (kind == CommandKind::kActivate || kind == CommandKind::kPrecharge) {
      int64_t& open = open_rows_[static_cast<size_t>(bank_index(rank, bank_group, bank))];
      open_banks_ += kind == CommandKind::kActivate ? 1 : -1;
      open = kind == CommandKind::kActivate ? row : kClosedRow;
    } else if (!single_rank_ && (kind == CommandKind::kRead || kind == CommandKind::kWrite)) {
      hold_other_ranks(kind, rank, cycle);
    }
  }
  // How many cycles a column command of kind `next` to `next_rank` must wait after one of kind
  // `previous` to `previous_rank`: BankState::column_gap within a rank, the shared data bus's
  // distance between ranks.
  int64_t column_gap(CommandKind previous, int previous_rank, CommandKind next, int next_rank,
                     bool same_bank_group) const {
    if (previous_rank == next_rank) {
      return ranks_[static_cast<size_t>(next_rank)].column_gap(previous, next, same_bank_group);
    }
    return other_rank_gap_[BankState::column_index(previous)][BankState::column_index(next)];
  }

  int64_t open_row(int rank, int bank_group, int bank) const {
    return open_rows_[static_cast<size_t>(bank_index(rank, bank_group, bank))];
  }
  int open_bank_count() const { return open_banks_; }  // over all ranks
  int open_bank_count(int rank) const {
    return ranks_[static_cast<size_t>(rank)].open_bank_count();
  }
  int ranks() const { return static_cast<int>(ranks_.size()); }
  int bank_groups() const { return organization_.bank_groups; }
  int banks_per_group() const { return organization_.banks_per_group; }
  const DramOrganization& organization() const { return organization_; }
  const BankState& rank(int rank) const { return ranks_[static_cast<size_t>(rank)]; }

 private:
  static constexpr size_t bus_index(CommandKind kind) { return kind == CommandKind::kRead ? 0 : 1; }
  int bank_index(int rank, int bank_group, int bank) const {
    return organization_.flat_bank(rank, bank_group, bank);
  }
  // A column command of `rank` at `cycle`: the other ranks' column commands wait for the bus.
  void hold_other_ranks(CommandKind kind, int rank, int64_t cycle);
  // The data bus's distance between column commands of two different ranks; computed once
  // into other_rank_gap_, indexed [previous][next] by BankState::column_index().
  int64_t other_rank_gap(CommandKind previous, CommandKind next) const;
  std::array<std::array<int64_t, 2>, 2> other_rank_gap_{};

  std::vector<BankState> ranks_;
  // Per rank, for RD and WR: the earliest cycle other ranks' bursts leave the data bus to it.
  std::vector<std::array<int64_t, 2>> bus_next_;
  DramTiming timing_;
  int64_t burst_cycles_ = 0;
  bool single_rank_ = true;  // no other rank holds the bus: the one-rank path stays as cheap
  DramOrganization organization_;
  // Each bank's open row, all ranks in one array (the schedulers ask for it per queued burst).
  std::vector<int64_t> open_rows_;
  int open_banks_ = 0;
};

}  // namespace polyarch::sim::dram
