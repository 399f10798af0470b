#include "sim/memory/dram/pim_sequencer.h"

#include <algorithm>
#include <vector>

#include "base/error.h"
#include "sim/memory/dram/scheduler.h"

namespace polyarch::sim::dram {

namespace {

// Where one PU stands in its block.
struct PuCursor {
  int first_bank = 0;      // flat index (bank_group x banks_per_group + bank) of its first bank
  int64_t next_burst = 0;  // the next column access it makes
  int64_t end_burst = 0;
  int64_t last_column = -1;   // cycle of its last column command in this block; -1: none yet
};

// A command the sequencer could issue next, and the earliest cycle it may.
struct Candidate {
  int64_t cycle = kNever;
  CommandKind kind = CommandKind::kRead;
  int pu = -1;  // -1: a command for the whole pseudo-channel (REF) or a bank no PU streams
  int bank_group = 0;
  int bank = 0;
  int64_t row = 0;
  // Equal cycles: REF first (it is overdue), then column commands (the stream's progress),
  // then PRE, then ACT; lower rank wins.
  int rank() const {
    switch (kind) {
      case CommandKind::kRefresh:
      case CommandKind::kRefreshBank: return 0;
      case CommandKind::kRead:
      case CommandKind::kWrite: return 1;
      case CommandKind::kPrecharge: return 2;
      case CommandKind::kActivate: return 3;
    }
    return 4;
  }
};

}  // namespace

PimCounters& PimCounters::operator+=(const PimCounters& other) {
  blocks += other.blocks;
  column_commands += other.column_commands;
  activates += other.activates;
  precharges += other.precharges;
  refreshes += other.refreshes;
  mode_entries += other.mode_entries;
  mode_exits += other.mode_exits;
  bursts_per_pu += other.bursts_per_pu;
  internal_bytes += other.internal_bytes;
  return *this;
}

PimCounters PimCounters::since(const PimCounters& earlier) const {
  PimCounters delta = *this;
  delta.blocks -= earlier.blocks;
  delta.column_commands -= earlier.column_commands;
  delta.activates -= earlier.activates;
  delta.precharges -= earlier.precharges;
  delta.refreshes -= earlier.refreshes;
  delta.mode_entries -= earlier.mode_entries;
  delta.mode_exits -= earlier.mode_exits;
  delta.bursts_per_pu -= earlier.bursts_per_pu;
  delta.internal_bytes -= earlier.internal_bytes;
  return delta;
}

PimSequencer::PimSequencer(const DramConfig& config)
    : config_(config),
      bursts_per_row_(config.bursts_per_row()),
      read_latency_(config.timing.tCL + config.burst_cycles()) {}

int64_t PimSequencer::issue_at_earliest(CommandKind kind, int bank_group, int bank, int64_t row,
                                        PimControllerPort& port) {
  const int64_t cycle = std::max(port.now, port.banks.earliest(kind, 0, bank_group, bank));
  port.banks.issue(kind, 0, bank_group, bank, row, cycle);
  port.issue(kind, bank_group, bank, row, 0, cycle);
  port.now = cycle + 1;
  return cycle;
}

void PimSequencer::close_open_banks(PimControllerPort& port) {
  for (int group = 0; group < port.banks.bank_groups(); ++group) {
    for (int bank = 0; bank < port.banks.banks_per_group(); ++bank) {
      if (port.banks.open_row(0, group, bank) == kClosedRow) continue;
      issue_at_earliest(CommandKind::kPrecharge, group, bank, 0, port);
      ++counters_.precharges;
    }
  }
}

void PimSequencer::change_mode(bool enter, PimControllerPort& port) {
  close_open_banks(port);
  // The change needs every bank precharged (tRP after its PRE).
  for (int group = 0; group < port.banks.bank_groups(); ++group) {
    for (int bank = 0; bank < port.banks.banks_per_group(); ++bank) {
      port.now = std::max(port.now, port.banks.earliest(CommandKind::kActivate, 0, group, bank));
    }
  }
  // The reserved row: the last row of bank 0, which no tensor of a full device reaches before
  // the others.
  const int64_t reserved_row = config_.organization.rows - 1;
  issue_at_earliest(CommandKind::kActivate, 0, 0, reserved_row, port);
  const int64_t precharge = issue_at_earliest(CommandKind::kPrecharge, 0, 0, 0, port);
  // No bank takes a command in the new mode before the change is complete.
  port.now = std::max(port.now, precharge + config_.timing.tRP);
  ++counters_.activates;
  ++counters_.precharges;
  in_mode_ = enter;
  ++(enter ? counters_.mode_entries : counters_.mode_exits);
}

void PimSequencer::leave_mode(int64_t arrival, PimControllerPort& port) {
  if (!in_mode_) return;
  port.now = std::max(port.now, arrival);
  change_mode(false, port);
}

PimBlockResult PimSequencer::run(const PimBlock& block, int64_t arrival,
                                 PimControllerPort& port) {
  const bool all_bank = block.mode == PimCommandMode::kAllBank;
  const int banks_per_group = port.banks.banks_per_group();
  const int banks = port.banks.bank_groups() * banks_per_group;
  const int sequencers = all_bank ? 1 : block.pus;
  if (block.pus < 1 || block.banks_per_pu < 1 || block.pus * block.banks_per_pu > banks ||
      block.bursts < 0 || block.first_burst < 0 ||
      block.first_burst + block.bursts > block.total_bursts) {
    throw_runtime({}, "PIM block does not fit the pseudo-channel: " + std::to_string(block.pus) +
                          " PUs x " + std::to_string(block.banks_per_pu) + " banks of " +
                          std::to_string(banks));
  }
  port.now = std::max(port.now, arrival);
  PimBlockResult result{port.now, port.now};
  if (block.bursts == 0) return result;
  if (all_bank && !in_mode_) change_mode(true, port);
  ++counters_.blocks;
  counters_.bursts_per_pu += block.bursts;

  const int64_t per_row = bursts_per_row_;
  // All-bank: one command reads a burst in every PU's bank; per-bank: in its own PU's.
  const int64_t bytes_per_column_command = (all_bank ? block.pus : 1) * config_.bytes_per_burst();
  const int64_t bpp = block.banks_per_pu;
  const int64_t rows = config_.organization.rows;
  // The stream's row `r` of a PU: its flat bank and the DRAM row in it.
  auto bank_of = [&](const PuCursor& pu, int64_t r) {
    return pu.first_bank + static_cast<int>(r % bpp);
  };
  auto dram_row = [&](int64_t r) { return (block.base_row + r / bpp) % rows; };
  auto is_open = [&](int flat, int64_t row) {
    return port.banks.open_row(0, flat / banks_per_group, flat % banks_per_group) == row;
  };
  // The last stream row a block opens: its own last one, or, while the stream goes on, the
  // next block's first (opened ahead, as a continuous stream would, behind this block's reads).
  const int64_t end = block.first_burst + block.bursts;
  const int64_t last_row_opened = end < block.total_bursts ? end / per_row : (end - 1) / per_row;

  std::vector<PuCursor> pus(static_cast<size_t>(sequencers));
  for (int p = 0; p < sequencers; ++p) {
    PuCursor& pu = pus[static_cast<size_t>(p)];
    pu.first_bank = p * block.banks_per_pu;
    pu.next_burst = block.first_burst;
    pu.end_burst = end;
  }

  int round_robin = 0;
  int64_t remaining = block.bursts * sequencers;
  while (remaining > 0) {
    const bool refresh_due = port.refresh_enabled && port.now >= port.next_refresh_cycle;
    Candidate best;
    auto consider = [&](const Candidate& c) {
      const int64_t cycle = std::max(c.cycle, port.now);
      const int64_t best_cycle = best.cycle == kNever ? kNever : std::max(best.cycle, port.now);
      if (cycle < best_cycle || (cycle == best_cycle && c.rank() < best.rank())) best = c;
    };
    bool mid_row_reads = false;  // a PU still reads a row a refresh must wait for
    for (int k = 0; k < sequencers; ++k) {
      const int p = (round_robin + k) % sequencers;
      PuCursor& pu = pus[static_cast<size_t>(p)];
      if (pu.next_burst >= pu.end_burst) continue;
      const int64_t r = pu.next_burst / per_row;
      const int flat = bank_of(pu, r);
      const int group = flat / banks_per_group;
      const int bank = flat % banks_per_group;
      const bool row_started = pu.next_burst % per_row != 0 && pu.next_burst != block.first_burst;
      if (refresh_due && row_started) mid_row_reads = true;
      if (is_open(flat, dram_row(r)) && (!refresh_due || row_started)) {
        int64_t cycle = port.banks.earliest(CommandKind::kRead, 0, group, bank);
        if (pu.last_column >= 0) {
          cycle = std::max(cycle, pu.last_column + block.compute_cycles_per_burst);
        }
        consider({cycle, CommandKind::kRead, p, group, bank, dram_row(r)});
      }
      if (refresh_due) continue;
      // The next row to open: the first of rows r, r + 1, ... not open yet (a row opened ahead,
      // by this block or the one before, is), once its bank holds no row this PU still reads.
      int64_t a = r;
      while (a <= last_row_opened && a < r + bpp && is_open(bank_of(pu, a), dram_row(a))) ++a;
      if (a > last_row_opened || a >= r + bpp) continue;
      const int next_flat = bank_of(pu, a);
      const int next_group = next_flat / banks_per_group;
      const int next_bank = next_flat % banks_per_group;
      if (port.banks.open_row(0, next_group, next_bank) == kClosedRow) {
        consider({port.banks.earliest(CommandKind::kActivate, 0, next_group, next_bank),
                  CommandKind::kActivate, p, next_group, next_bank, dram_row(a)});
      } else {
        consider({port.banks.earliest(CommandKind::kPrecharge, 0, next_group, next_bank),
                  CommandKind::kPrecharge, p, next_group, next_bank, 0});
      }
    }
    if (refresh_due && !mid_row_reads) {
      // Every bank closes (rows of PUs between rows included), then REF.
      if (port.banks.open_bank_count() == 0) {
        consider({port.banks.earliest(CommandKind::kRefresh, 0, 0, 0), CommandKind::kRefresh, -1, 0,
                  0, 0});
      } else {
        for (int flat = 0; flat < banks; ++flat) {
          const int group = flat / banks_per_group;
          const int bank = flat % banks_per_group;
          if (port.banks.open_row(0, group, bank) == kClosedRow) continue;
          consider({port.banks.earliest(CommandKind::kPrecharge, 0, group, bank),
                    CommandKind::kPrecharge, -1, group, bank, 0});
        }
      }
    }
    if (best.cycle == kNever) {
      throw_runtime({}, "PIM sequencer found no command to issue");  // a bug, not bad input
    }
    const int64_t cycle = std::max(best.cycle, port.now);
    port.banks.issue(best.kind, 0, best.bank_group, best.bank, best.row, cycle);
    port.now = cycle + 1;
    switch (best.kind) {
      case CommandKind::kRead: {
        PuCursor& pu = pus[static_cast<size_t>(best.pu)];
        const int column = static_cast<int>((pu.next_burst % per_row) *
                                            config_.organization.burst_length);
        port.issue(best.kind, best.bank_group, best.bank, best.row, column, cycle);
        pu.last_column = cycle;
        ++pu.next_burst;
        --remaining;
        ++counters_.column_commands;
        counters_.internal_bytes += bytes_per_column_command;
        if (port.internal_bytes) port.internal_bytes(cycle, bytes_per_column_command);
        result.last_command_cycle = cycle;
        result.completion_cycle =
            std::max({result.completion_cycle, cycle + read_latency_,
                      cycle + block.compute_cycles_per_burst});
        round_robin = (best.pu + 1) % sequencers;
        break;
      }
      case CommandKind::kActivate:
        port.issue(best.kind, best.bank_group, best.bank, best.row, 0, cycle);
        ++counters_.activates;
        break;
      case CommandKind::kPrecharge:
        port.issue(best.kind, best.bank_group, best.bank, 0, 0, cycle);
        ++counters_.precharges;
        break;
      case CommandKind::kRefresh:
        port.issue(best.kind, 0, 0, 0, 0, cycle);
        ++counters_.refreshes;
        port.next_refresh_cycle += port.refresh_interval;
        break;
      case CommandKind::kWrite:
      case CommandKind::kRefreshBank:
        break;
    }
  }
  return result;
}

}  // namespace polyarch::sim::dram
