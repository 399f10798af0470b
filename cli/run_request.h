#pragma once
// `polyarch run`'s simulation options and what they become: the driver's request and the files
// `--out DIR` receives. The program and the Python module (python/) read options through these,
// so both accept the same options and refuse bad ones with the same errors.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "driver/run.h"
#include "reports/output_files.h"

namespace polyarch::cli {

// Every option of `polyarch run` (simulation and --functional), mapping and pass flags included.
std::vector<OptionSpec> run_option_specs();

// The request a simulation run makes of the driver; bad values are bad input naming the option.
driver::RunRequest run_request(const Arguments& parsed);

// "--seed N" (0 when absent).
uint64_t parse_seed(const std::optional<std::string>& text);

// report.json, ops.csv, trace.json and report.html of one run, `report` being its report.json.
std::vector<reports::NamedContent> run_output_files(const sim::RunResult& result,
                                                   const nlohmann::ordered_json& report);

}  // namespace polyarch::cli
