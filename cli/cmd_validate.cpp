// `polyarch validate FILE...`: checks arch, workload and sweep files without simulating.
#include <iostream>

#include "base/error.h"
#include "cli/commands.h"
#include "driver/registry_names.h"
#include "driver/validate_file.h"
#include "sweep/sweep_summary.h"

namespace polyarch::cli {

namespace {

// The help; the unit kinds come from their registry.
std::string validate_help() {
  return R"(usage: polyarch validate FILE...
       polyarch validate --describe NAME

Checks each file and prints 'ok' or every error with file:line:col and key path. Arch files are
YAML with `units:`; sweep files have `parameters:` (every point's arch is checked, nothing is
simulated); workloads are layer-list YAML (`layers:`), model YAML (`model:`), SCALE-Sim
topology CSV, ONNX or text IR (.ir).
Exit code 2 when any file is invalid.

--describe NAME prints the keys of an arch file's part NAME: `soc` (the top level), `memory`,
`thermal` or a unit kind, one line per key: key, type, unit, default, range, doc. Unit kinds:
)" + driver::unit_kind_list() + R"(.
)";
}

std::string validate_one(const std::string& file) {
  if (std::optional<std::string> sweep = sweep::sweep_file_summary(file)) return *sweep;
  return driver::validate_file(file);
}

}  // namespace

int validate_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << validate_help();
    return 0;
  }
  if (args.empty()) throw_bad_input({}, "validate needs at least one file (see --help)");
  if (args[0] == "--describe") {
    if (args.size() != 2) throw_bad_input({}, "--describe takes one name (see --help)");
    std::cout << driver::describe_keys(args[1]);
    return 0;
  }
  int exit_code = 0;
  for (const std::string& file : args) {
    try {
      std::string verdict = validate_one(file);
      std::cout << "ok: " << file << " (" << verdict << ")\n";
    } catch (const Error& error) {
      std::cerr << "polyarch: error: " << error.what() << "\n";
      exit_code = error.kind() == ErrorKind::kBadInput ? 2 : std::max(exit_code, 1);
    }
  }
  return exit_code;
}

}  // namespace polyarch::cli
