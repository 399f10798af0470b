#include "sim/memory/dram/bank_state.h"

#include <algorithm>

namespace polyarch::sim::dram {
namespace {

constexpr int index_of(CommandKind kind) { return static_cast<int>(kind); }

}  // namespace

BankState::BankState(const DramConfig& config)
    : timing_(config.timing),
      burst_cycles_(config.burst_cycles()),
      bank_groups_(config.organization.bank_groups),
      banks_per_group_(config.organization.banks_per_group),
      banks_(static_cast<size_t>(config.banks_per_pseudo_channel())),
      group_next_(static_cast<size_t>(config.organization.bank_groups), NextCycle{}) {
  for (const CommandKind previous : {CommandKind::kRead, CommandKind::kWrite}) {
    for (const CommandKind next : {CommandKind::kRead, CommandKind::kWrite}) {
      channel_gap_[column_index(previous)][column_index(next)] = channel_column_gap(previous, next);
      group_gap_[column_index(previous)][column_index(next)] = group_column_gap(previous, next);
    }
  }
}

void BankState::raise(NextCycle& next, CommandKind kind, int64_t cycle) {
  int64_t& slot = next[index_of(kind)];
  slot = std::max(slot, cycle);
}

int64_t BankState::channel_column_gap(CommandKind previous, CommandKind next) const {
  const DramTiming& t = timing_;
  if (previous == CommandKind::kRead && next == CommandKind::kWrite) {
    // Write data may start only after the read data and the bus turnaround.
    return std::max(t.tCCD_S, t.tCL + burst_cycles_ + t.tRTW_turnaround - t.tWL);
  }
  if (previous == CommandKind::kWrite && next == CommandKind::kRead) {
    return t.tWL + burst_cycles_ + t.tWTR_S;  // after the write data, tWTR_S
  }
  // The data bus carries one burst at a time, so column commands are also tBL apart.
  return std::max(t.tCCD_S, burst_cycles_);
}

int64_t BankState::group_column_gap(CommandKind previous, CommandKind next) const {
  const DramTiming& t = timing_;
  if (previous == CommandKind::kRead && next == CommandKind::kWrite) return 0;
  if (previous == CommandKind::kWrite && next == CommandKind::kRead) {
    return t.tWL + burst_cycles_ + t.tWTR_L;
  }
  return std::max(t.tCCD_L, burst_cycles_);
}

void BankState::activate(int bank_group, int bank, int64_t row, int64_t cycle) {
  const DramTiming& t = timing_;
  Bank& target = bank_at(bank_group, bank);
  target.open_row = row;
  ++open_banks_;
  open_mask_ |= uint64_t{1} << (bank_group * banks_per_group_ + bank);
  raise(target.next, CommandKind::kRead, cycle + t.tRCD);
  raise(target.next, CommandKind::kWrite, cycle + t.activate_to_write());
  raise(target.next, CommandKind::kPrecharge, cycle + t.tRAS);
  raise(group_next_[bank_group], CommandKind::kActivate, cycle + t.tRRD_L);
  raise(channel_next_, CommandKind::kActivate, cycle + t.tRRD_S);
  if (recent_activate_count_ < 4) {
    recent_activates_[recent_activate_count_++] = cycle;
  } else {
    recent_activates_[oldest_activate_] = cycle;
    oldest_activate_ = (oldest_activate_ + 1) % 4;
  }
  if (t.t32AW > 0 && activates_32_.size() < 32) {
    activates_32_.push_back(cycle);
  } else if (t.t32AW > 0) {
    activates_32_[oldest_activate_32_] = cycle;
    oldest_activate_32_ = (oldest_activate_32_ + 1) % 32;
  }
}

void BankState::precharge(int bank_group, int bank, int64_t cycle) {
  const DramTiming& t = timing_;
  Bank& target = bank_at(bank_group, bank);
  target.open_row = kClosedRow;
  --open_banks_;
  open_mask_ &= ~(uint64_t{1} << (bank_group * banks_per_group_ + bank));
  raise(target.next, CommandKind::kActivate, cycle + t.tRP);
  raise(target.next, CommandKind::kRefreshBank, cycle + t.tRP);
  raise(channel_next_, CommandKind::kRefresh, cycle + t.tRP);
  if (t.tPPD > 0) raise(channel_next_, CommandKind::kPrecharge, cycle + t.tPPD);
  // tRTP_L / tRTP_S keep a PRE from the cycle of a read of the bank group / rank: with dual
  // command issue the read may not go out beside the PRE either. (With one command per
  // cycle nothing issues in the PRE's cycle anyway.)
  if (t.tRTP_L > 0) raise(group_next_[bank_group], CommandKind::kRead, cycle + 1);
  if (t.tRTP_S > 0) raise(channel_next_, CommandKind::kRead, cycle + 1);
}

void BankState::read_or_write(CommandKind kind, int bank_group, int bank, int64_t cycle) {
  const DramTiming& t = timing_;
  NextCycle& group = group_next_[bank_group];
  for (const CommandKind next : {CommandKind::kRead, CommandKind::kWrite}) {
    if (const int64_t gap = channel_gap_[column_index(kind)][column_index(next)]; gap > 0) {
      raise(channel_next_, next, cycle + gap);
    }
    if (const int64_t gap = group_gap_[column_index(kind)][column_index(next)]; gap > 0) {
      raise(group, next, cycle + gap);
    }
  }
  // A read's data leaves the bank before it may close; a write's must be restored into it.
  const int64_t to_precharge = kind == CommandKind::kRead ? t.tRTP : t.tWL + burst_cycles_ + t.tWR;
  raise(bank_at(bank_group, bank).next, CommandKind::kPrecharge, cycle + to_precharge);
  if (kind == CommandKind::kRead && t.tRTP_L > 0) {
    raise(group, CommandKind::kPrecharge, cycle + t.tRTP_L);
    raise(channel_next_, CommandKind::kPrecharge, cycle + t.tRTP_S);
  }
}

void BankState::refresh(int64_t cycle) {
  const int64_t done = cycle + timing_.tRFC;
  raise(channel_next_, CommandKind::kActivate, done);
  raise(channel_next_, CommandKind::kRefresh, done);
  raise(channel_next_, CommandKind::kRefreshBank, done);
}

void BankState::refresh_bank(int bank_group, int bank, int64_t cycle) {
  // The bank refreshes for tRFCb; an all-bank REF waits for it too.
  const int64_t done = cycle + timing_.tRFCb;
  Bank& target = bank_at(bank_group, bank);
  raise(target.next, CommandKind::kActivate, done);
  raise(target.next, CommandKind::kRefreshBank, done);
  raise(channel_next_, CommandKind::kRefresh, done);
}

}  // namespace polyarch::sim::dram
