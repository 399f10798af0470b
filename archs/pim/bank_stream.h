#pragma once
// One PU streaming its share of a matrix out of its banks, command by command in the manner of
// a PIM controller: rows alternate over the PU's banks (so the next bank's ACT and the last
// one's PRE hide behind column reads when it has two or more), column commands occupy the PU's
// command slot every max(tCCD_L, compute per burst) cycles, and an all-bank refresh comes every
// tREFI once every bank is precharged. All PUs of a pseudo-channel do the same in lockstep in
// all-bank mode, so one PU's schedule is the pseudo-channel's.
#include <cstdint>
#include <vector>

#include "sim/memory/dram/command.h"
#include "sim/memory/dram/config.h"

namespace polyarch::archs::pim {

struct BankStreamResult {
  int64_t cycles = 0;  // DRAM command-clock cycles until the last burst's data has arrived
  int64_t activates = 0;
  int64_t column_commands = 0;
  int64_t precharges = 0;
  int64_t refreshes = 0;
  std::vector<sim::dram::Command> commands;  // filled when recording
};

struct BankStreamRequest {
  int64_t bursts = 0;                  // column accesses the PU makes
  int64_t banks = 1;                   // banks the PU streams from, in one bank group
  int64_t slot_cycles = 1;             // per column command: max(tCCD_L, command bus, compute)
  bool record = false;                 // keep every command (for the timing checker)
};

BankStreamResult stream_rows(const sim::dram::DramConfig& dram, const BankStreamRequest& request);

}  // namespace polyarch::archs::pim
