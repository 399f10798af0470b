#pragma once
// `polyarch compile`'s options and the request they make of the driver: the program and the
// Python module (python/) read them the same way.
#include <vector>

#include "cli/arguments.h"
#include "driver/compile_workload.h"

namespace polyarch::cli {

// Every option of `polyarch compile`, mapping and pass flags included.
std::vector<OptionSpec> compile_option_specs();

// The driver's request; --explain without --arch is bad input.
driver::CompileRequest compile_request(const Arguments& parsed);

}  // namespace polyarch::cli
