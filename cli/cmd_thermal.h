#pragma once
// `polyarch thermal`: HotSpot-compatible thermal simulation of a floorplan and a power trace.
#include "cli/commands.h"

namespace polyarch::cli {

int thermal_command(const CommandArgs& args);

}  // namespace polyarch::cli
