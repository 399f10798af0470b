#include "sim/memory/dram/channel_state.h"

#include <algorithm>

namespace polyarch::sim::dram {

ChannelState::ChannelState(const DramConfig& config)
    : ranks_(static_cast<size_t>(config.organization.ranks), BankState(config)),
      bus_next_(static_cast<size_t>(config.organization.ranks), std::array<int64_t, 2>{}),
      timing_(config.timing),
      burst_cycles_(config.burst_cycles()),
      single_rank_(config.organization.ranks == 1),
      organization_(config.organization),
      open_rows_(static_cast<size_t>(config.organization.ranks * config.banks_per_pseudo_channel()),
                 kClosedRow) {
  for (const CommandKind previous : {CommandKind::kRead, CommandKind::kWrite}) {
    for (const CommandKind next : {CommandKind::kRead, CommandKind::kWrite}) {
      other_rank_gap_[BankState::column_index(previous)][BankState::column_index(next)] =
          other_rank_gap(previous, next);
    }
  }
}

int64_t ChannelState::other_rank_gap(CommandKind previous, CommandKind next) const {
  const DramTiming& t = timing_;
  const bool previous_read = previous == CommandKind::kRead;
  const bool next_read = next == CommandKind::kRead;
  // Data of `next` starts at least one burst (plus the switch where the driver changes) after
  // the data of `previous` starts: the gap is that distance less the latencies' difference.
  const int64_t previous_latency = previous_read ? t.tCL : t.tWL;
  const int64_t next_latency = next_read ? t.tCL : t.tWL;
  int64_t idle = 0;
  if (next_read) idle = t.tRTRS;  // another rank's DRAMs start driving the bus
  if (previous_read && !next_read) idle = std::max(t.tRTRS, t.tRTW_turnaround);
  return previous_latency + burst_cycles_ + idle - next_latency;
}

void ChannelState::hold_other_ranks(CommandKind kind, int rank, int64_t cycle) {
  for (size_t other = 0; other < ranks_.size(); ++other) {
    if (static_cast<int>(other) == rank) continue;
    for (const CommandKind next : {CommandKind::kRead, CommandKind::kWrite}) {
      int64_t& slot = bus_next_[other][bus_index(next)];
      slot = std::max(
          slot,
          cycle + other_rank_gap_[BankState::column_index(kind)][BankState::column_index(next)]);
    }
  }
}

}  // namespace polyarch::sim::dram
