#pragma once
// DRAM commands as a controller issues them and the checker replays them.
#include <cstdint>
#include <string>
#include <string_view>

namespace polyarch::sim::dram {

enum class CommandKind {
  kActivate,     // ACT: open `row` in a bank
  kPrecharge,    // PRE: close the open row of a bank
  kRead,         // RD: one burst from the open row
  kWrite,        // WR: one burst into the open row
  kRefresh,      // REF: all-bank refresh of a rank (every bank of it must be precharged)
  kRefreshBank,  // REFpb: per-bank refresh of one (precharged) bank; the others keep working
};
inline constexpr int kCommandKindCount = 6;
std::string_view command_name(CommandKind kind);  // "ACT", "PRE", "RD", "WR", "REF", "REFpb"
// RD and WR go on the column command bus; ACT, PRE and the refreshes on the row command bus
// (one bus for both except with DramOrganization::dual_command_issue).
inline constexpr bool is_column(CommandKind kind) {
  return kind == CommandKind::kRead || kind == CommandKind::kWrite;
}

struct Command {
  int64_t cycle = 0;  // DRAM command-clock cycle it is issued in
  CommandKind kind = CommandKind::kActivate;
  int channel = 0;
  int pseudo_channel = 0;  // its own controller, command bus and data bus
  int rank = 0;            // the scope of tRRD, tFAW, tCCD_S and all-bank refresh
  int bank_group = 0;
  int bank = 0;  // within the bank group
  int64_t row = 0;
  int column = 0;

  bool operator==(const Command&) const = default;
};

// "cycle 120: RD ch0 pc1 ra0 bg2 ba3 row 17 col 64"
std::string describe(const Command& command);

}  // namespace polyarch::sim::dram
