#pragma once
// An independent timing checker in the manner of Ramulator's: it replays a command stream and
// verifies, from the JEDEC definitions and its own record of past commands, every constraint
// the controller must obey. It shares no constraint code with the controller (bank_state.h),
// so a bug in one shows up as a disagreement with the other.
//
// Checked per pseudo-channel: command order and one command per cycle (HBM, whose row and
// column commands have buses of their own: one of each per cycle), data-bus overlap, tRTW
// (read-to-write bus turnaround) and tRTRS (idle bus between two ranks' bursts where the driver
// changes). Per rank: bank state (ACT only to a closed bank, RD/WR only to the open row, PRE
// only to an open bank, REF only with every bank of the rank closed); tRCD, tRP, tRAS, tRTP,
// tWR (same bank); tCCD_L, tRRD_L, tWTR_L, tRTP_L (same bank group); tCCD_S, tRRD_S, tWTR_S,
// tRTP_S, tPPD, tFAW, t32AW, tRFC and the refresh interval (at most max_postponed_refreshes + 1
// times tREFI between a rank's REFs).
#include <optional>
#include <span>
#include <string>

#include "sim/memory/dram/command.h"
#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

struct TimingViolation {
  std::string rule;  // "tRCD", "tFAW", "bank state", ...
  Command command;   // the offending command
  std::string message;
};

// The first violation in `commands` (which may interleave pseudo-channels but must list each
// pseudo-channel's commands in issue order), or nullopt when the stream is legal.
std::optional<TimingViolation> check_command_stream(const DramConfig& config,
                                                    std::span<const Command> commands);

}  // namespace polyarch::sim::dram
