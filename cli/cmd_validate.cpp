// `polyarch validate FILE...`: checks arch, workload and sweep files without simulating.
#include <iostream>

#include "archs/soc/soc_config.h"
#include "archs/soc/soc_keys.h"
#include "base/config_tree.h"
#include "base/key_table.h"
#include "cli/commands.h"
#include "compiler/frontend/workload_loader.h"
#include "sweep/expand.h"

namespace polyarch::cli {

namespace {

constexpr const char* kValidateHelp = R"(usage: polyarch validate FILE...
       polyarch validate --describe NAME

Checks each file and prints 'ok' or every error with file:line:col and key path. Arch files are
YAML with `units:`; sweep files have `parameters:` (every point's arch is checked, nothing is
simulated); workloads are layer-list YAML (`layers:`), model YAML (`model:`), SCALE-Sim topology CSV or
ONNX.
Exit code 2 when any file is invalid.

--describe NAME prints the keys of an arch file's part NAME: `soc` (the top level), `memory`,
`thermal` or a unit kind (systolic, ...), one line per key: key, type, unit, default, range, doc.
)";

std::string validate_one(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  if (extension == ".csv" || extension == ".onnx") {
    ir::Graph graph = frontend::load_workload(path);
    return "workload, " + std::to_string(graph.op_count()) + " ops";
  }
  // A sweep file's `base:` names its arch, not an include, so it is read as it is.
  if (ConfigNode plain = load_config_file(path); sweep::looks_like_sweep(plain)) {
    sweep::SweepSpec spec = sweep::load_sweep_spec(path);
    sweep::SweepPlan plan = sweep::plan_sweep(spec);
    return "sweep, " + std::to_string(plan.points.size()) + " point(s) (" +
           std::to_string(plan.rejected) + " rejected by constraints) x " +
           std::to_string(spec.workloads.size()) + " workload(s)";
  }
  ConfigNode root = load_config_with_base(path);
  if (archs::looks_like_arch(root)) {
    archs::SocConfig soc = archs::parse_soc_config(root);
    return "arch '" + soc.name + "', " + std::to_string(soc.units.size()) + " unit(s)";
  }
  if (root.find("layers") != nullptr || root.find("model") != nullptr) {
    ir::Graph graph = frontend::load_workload(path);
    return "workload, " + std::to_string(graph.op_count()) + " ops";
  }
  throw_bad_input({path.string(), 0, 0, ""},
                  "cannot tell the file's type: an arch file has `units:`, a layer list has "
                  "`layers:`, a model file `model:`");
}

}  // namespace

int validate_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kValidateHelp;
    return 0;
  }
  if (args.empty()) throw_bad_input({}, "validate needs at least one file (see --help)");
  if (args[0] == "--describe") {
    if (args.size() != 2) throw_bad_input({}, "--describe takes one name (see --help)");
    std::cout << key_table_text(archs::key_table_named(args[1]));
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
