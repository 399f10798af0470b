// polyarch: one program, one subcommand per job. Exit codes: 0 ok, 1 simulation/runtime error,
// 2 bad input (files, options).
#include <iostream>
#include <string>
#include <vector>

#include "base/config_tree.h"
#include "base/error.h"
#include "cli/cmd_diff.h"
#include "cli/cmd_thermal.h"
#include "cli/commands.h"

namespace {

constexpr const char* kUsage = R"(polyarch — heterogeneous hardware simulator and compiler workbench

usage: polyarch <command> [options]

commands:
  run       --arch A.yaml --workload W [--out DIR]   simulate a workload, write report.json and ops.csv
  compare   --workload W --arch A.yaml --arch B.yaml  the same workload on several architectures
  validate  FILE...                                   check arch, workload and sweep files
  compile   --workload W [--passes L] [--emit-ir F]   import a workload (ONNX, .ir, ...), show its ops
  sweep     S.yaml [--out DIR] [-j N] [--resume] [--shard i/N]   design-space sweep into SQLite
  merge     OUT.sqlite IN.sqlite...                   join sweep shard databases
  thermal   --floorplan F.flp --power P.ptrace --out DIR   HotSpot-compatible thermal run
  diff      BASE NEW [--fail-on latency:+5%]          compare two reports; exit 3 on regression
  dram      --config F --trace T [--json OUT]         replay a memory trace on the JEDEC DRAM model

Run `polyarch <command> --help` for a command's options.
exit codes: 0 ok, 1 simulation or runtime error, 2 bad input (compare: the worst of its architectures)
)";

int dispatch(const std::vector<std::string>& args) {
  using namespace polyarch::cli;
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "polyarch " << POLYARCH_VERSION << "\n";
    return 0;
  }
  CommandArgs rest(args.begin() + 1, args.end());
  if (args[0] == "run") return run_command(rest);
  if (args[0] == "compare") return compare_command(rest);
  if (args[0] == "validate") return validate_command(rest);
  if (args[0] == "compile") return compile_command(rest);
  if (args[0] == "sweep") return sweep_command(rest);
  if (args[0] == "merge") return merge_command(rest);
  if (args[0] == "thermal") return thermal_command(rest);
  if (args[0] == "diff") return diff_command(rest);
  if (args[0] == "dram") return dram_command(rest);
  std::string message = "unknown command '" + args[0] + "'";
  std::string suggestion = polyarch::nearest_spelling(
      args[0],
      {"run", "compare", "validate", "compile", "sweep", "merge", "thermal", "diff", "dram"});
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  polyarch::throw_bad_input({}, message + " (see polyarch --help)");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return dispatch(args);
  } catch (const polyarch::Error& error) {
    std::cerr << "polyarch: error: " << error.what() << "\n";
    return error.kind() == polyarch::ErrorKind::kBadInput ? 2 : 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "polyarch: error: out of memory\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "polyarch: internal error: " << error.what() << "\n";
    return 1;
  }
}
