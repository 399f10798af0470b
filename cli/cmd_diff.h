#pragma once
// `polyarch diff`: compares two report.json files; exit 3 when a --fail-on rule finds a
// regression (for CI gates).
#include "cli/commands.h"

namespace polyarch::cli {

// Exit code of `polyarch diff` when a --fail-on rule fails (0 ok, 1 internal, 2 bad input).
inline constexpr int kRegressionExitCode = 3;

int diff_command(const CommandArgs& args);

}  // namespace polyarch::cli
