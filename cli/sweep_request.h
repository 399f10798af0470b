#pragma once
// `polyarch sweep`'s options and the sweep runner's options they make: the program and the
// Python module (python/) read them the same way.
#include <vector>

#include "cli/arguments.h"
#include "sweep/sweep_runner.h"

namespace polyarch::cli {

// Every option of `polyarch sweep` (mapping options included), the sweep file being positional.
std::vector<OptionSpec> sweep_option_specs();

// `-j N` and `-jN` become `--jobs N`: the make-style spellings the shared parser does not know.
std::vector<std::string> normalise_jobs_flag(const std::vector<std::string>& args);

// The runner's options for the one sweep file `parsed` names; bad values are bad input.
sweep::SweepRunOptions sweep_run_options(const Arguments& parsed);

}  // namespace polyarch::cli
