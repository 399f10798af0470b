#include "sim/memory/dram/command.h"

namespace polyarch::sim::dram {

std::string_view command_name(CommandKind kind) {
  switch (kind) {
    case CommandKind::kActivate:
      return "ACT";
    case CommandKind::kPrecharge:
      return "PRE";
    case CommandKind::kRead:
      return "RD";
    case CommandKind::kWrite:
      return "WR";
    case CommandKind::kRefresh:
      return "REF";
    case CommandKind::kRefreshBank:
      return "REFpb";
  }
  return "?";
}

std::string describe(const Command& command) {
  std::string text = "cycle " + std::to_string(command.cycle) + ": ";
  text.append(command_name(command.kind));
  text += " ch" + std::to_string(command.channel) + " pc" + std::to_string(command.pseudo_channel) +
          " ra" + std::to_string(command.rank);
  if (command.kind == CommandKind::kRefresh) return text;
  text += " bg" + std::to_string(command.bank_group) + " ba" + std::to_string(command.bank);
  if (command.kind == CommandKind::kPrecharge || command.kind == CommandKind::kRefreshBank)
    return text;
  text += " row " + std::to_string(command.row);
  if (command.kind != CommandKind::kActivate) text += " col " + std::to_string(command.column);
  return text;
}

}  // namespace polyarch::sim::dram
