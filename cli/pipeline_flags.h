#pragma once
// The compiler-pass flags `compile` and `run` share (--allow-unknown, --precision, --sparsity,
// --layout): their specs, their help and their values as the driver takes them
// (driver/pass_options.h).
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "driver/pass_options.h"

namespace polyarch::cli {

// Option specs to append to a command's own.
std::vector<OptionSpec> pipeline_option_specs();

// The flags as given; the driver checks their values.
driver::PassFlags pass_flags(const Arguments& parsed);

// Help lines describing the flags.
std::string pipeline_flags_help();

}  // namespace polyarch::cli
