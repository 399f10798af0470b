#include "archs/pim/bank_stream.h"

#include <algorithm>

namespace polyarch::archs::pim {

BankStreamResult stream_rows(const sim::dram::DramConfig& dram, const BankStreamRequest& request) {
  using sim::dram::Command;
  using sim::dram::CommandKind;
  const sim::dram::DramTiming& t = dram.timing;
  const int64_t bursts_per_row = dram.bursts_per_row();
  const int64_t step = std::max(request.slot_cycles, t.tCCD_L);
  BankStreamResult result;
  std::vector<int64_t> act_ready(static_cast<std::size_t>(request.banks), 0);
  std::vector<int64_t> bank_row(static_cast<std::size_t>(request.banks), 0);
  int64_t column_free = 0;
  int64_t last_act = -t.tRRD_L;
  int64_t last_column = 0;
  int64_t next_refresh = t.tREFI;
  auto record = [&](int64_t cycle, CommandKind kind, int64_t bank, int64_t row, int column) {
    if (!request.record) return;
    Command command;
    command.cycle = cycle;
    command.kind = kind;
    command.bank_group = 0;
    command.bank = static_cast<int>(bank);
    command.row = row;
    command.column = column;
    result.commands.push_back(command);
  };
  int64_t remaining = request.bursts;
  for (int64_t row = 0; remaining > 0; ++row) {
    const int64_t bank = row % request.banks;
    const auto index = static_cast<std::size_t>(bank);
    const int64_t bursts = std::min(bursts_per_row, remaining);
    remaining -= bursts;
    int64_t act = std::max(act_ready[index], last_act + t.tRRD_L);
    if (act >= next_refresh) {
      // Refresh needs every bank precharged (tRP after its PRE).
      const int64_t refresh =
          std::max({next_refresh, *std::max_element(act_ready.begin(), act_ready.end()),
                    last_column + t.tRTP + t.tRP});
      record(refresh, CommandKind::kRefresh, 0, 0, 0);
      ++result.refreshes;
      act = std::max(act, refresh + t.tRFC);
      while (next_refresh <= refresh) next_refresh += t.tREFI;
    }
    record(act, CommandKind::kActivate, bank, bank_row[index], 0);
    ++result.activates;
    last_act = act;
    const int64_t first_column = std::max(act + t.tRCD, column_free);
    for (int64_t burst = 0; request.record && burst < bursts; ++burst) {
      record(first_column + burst * step, CommandKind::kRead, bank, bank_row[index],
             static_cast<int>(burst * dram.organization.burst_length));
    }
    last_column = first_column + (bursts - 1) * step;
    column_free = last_column + step;
    result.column_commands += bursts;
    const int64_t precharge = std::max(last_column + t.tRTP, act + t.tRAS);
    record(precharge, CommandKind::kPrecharge, bank, 0, 0);
    ++result.precharges;
    act_ready[index] = precharge + t.tRP;
    ++bank_row[index];
  }
  if (request.record) {
    std::stable_sort(result.commands.begin(), result.commands.end(),
                     [](const Command& a, const Command& b) { return a.cycle < b.cycle; });
  }
  result.cycles = request.bursts > 0
                      ? std::max(column_free, last_column + t.tCL + dram.burst_cycles())
                      : 0;
  return result;
}

}  // namespace polyarch::archs::pim
