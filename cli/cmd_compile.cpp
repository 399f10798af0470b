// `polyarch compile`: imports a workload, runs the compiler's passes and shows what comes out.
#include <fstream>
#include <iostream>

#include "base/error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/compile_request.h"
#include "cli/pipeline_flags.h"
#include "driver/compile_workload.h"
#include "driver/registry_names.h"

namespace polyarch::cli {

namespace {

constexpr const char* kCompileHelp =
    R"(usage: polyarch compile --workload W [--dump-ir PASS|import|all] [--passes P1,P2,...]
                        [--emit-ir OUT.ir] [--json OUT.json]
                        [--arch A.yaml --explain [--objective O] [--search S] [--search-budget N]
                                                 [--cache-dir DIR | --no-cache]]

Imports workload W (a layer-list YAML, a SCALE-Sim topology CSV, an ONNX model or a text IR
file) and compiles it. A workload with ONNX nodes runs through the standard pass pipeline,
the passes below in this order (allow-unknown only with --allow-unknown), or the passes
--passes names, and prints each pass with the op count before and after it. Layer lists,
topologies and compiled .ir files are canonical already. Then it prints one row per canonical
op (shape, MACs, FLOPs, bytes touched) and the totals: MACs, FLOPs, bytes, parameters
(elements of the weights the ops read) and MACs by the type each op computes in. Says whether
the model can be executed numerically (a model whose weights file is absent cannot, nor an .ir
file that leaves weight values out).

passes:
)";

// The options; the unit kinds and searchers come from their registries.
std::string options_help() {
  return R"(
options:
  --workload FILE   .yaml / .yml layer list, .csv SCALE-Sim topology, .onnx model or .ir text IR
  --dump-ir WHICH   also print the graph in the text IR (docs/ir.md): after the pass named
                    WHICH, as imported (import), or after every pass (all)
  --passes LIST     run exactly these passes, comma-separated, in this order (even on a
                    canonical workload), instead of the standard pipeline
  --emit-ir FILE    write the compiled graph in the text IR; FILE is a workload for compile, run,
                    compare and sweeps with the same MACs, bytes and simulation results
  --json FILE       write the pass statistics, the per-op table and the totals as JSON; with
                    --explain also "explain": per op the chosen unit, why it won, and every
                    unit's option (latency_s, energy_j, bound, mapping, source), best first
  --arch FILE       the SoC to map onto (needed by --explain; picks --layout auto's layout)
  --explain         per op: every unit that can run it with its cost; a unit whose kind has a
                    mapping space for the op gives the best mapping of that space with its
                    latency, energy and bound, others their analytical estimate; the chosen
                    unit, and why it won (compute-, buffer-, DRAM- or NoC-bound, and by how
                    much it beats the runner-up). Kinds with mapping spaces:
                    )" + driver::unit_kind_list() + R"(
  --objective O     latency (default), energy, edp or weighted:L,E
  --search S        the searcher per decision, exhaustive by default (the same decisions, and
                    cache entries, as run --search S):
                    )" + driver::searcher_list() + R"(
  --search-budget N evaluations per decision for the non-exhaustive searchers (default 2000)
  --cache-dir DIR   where mapping decisions are cached (default $XDG_CACHE_HOME/polyarch)
  --no-cache        search every decision again and store nothing
)";
}

}  // namespace

// Writes `text` to `path` (--emit-ir, --json); a file that cannot be written is bad input.
void write_text_file(const std::string& path, const std::string& text, const std::string& flag) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file.flush()) throw_bad_input({path, 0, 0, ""}, flag + ": cannot write this file");
}

int compile_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kCompileHelp << driver::pass_list_help() << options_help() << "\n"
              << pipeline_flags_help();
    return 0;
  }
  Arguments parsed(args, compile_option_specs());
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  const driver::CompileRequest request = compile_request(parsed);
  const std::string workload = request.workload.string();
  const driver::CompileOutcome compiled = driver::compile_workload(request);
  if (auto path = parsed.value("emit-ir")) write_text_file(*path, compiled.ir, "--emit-ir");
  if (auto path = parsed.value("json")) write_text_file(*path, compiled.json, "--json");
  std::cout << "workload: " << workload << " (graph '" << compiled.graph_name << "', "
            << compiled.imported_ops << " ops)\n";
  std::cout << "functional execution: "
            << (compiled.functional_unavailable ? "unavailable: " + *compiled.functional_unavailable
                                                : std::string("available"))
            << "\n";
  std::cout << "\nimported op types:\n" << compiled.imported_types;
  if (!compiled.passes.empty()) std::cout << "\n" << compiled.passes;
  std::cout << "\ncanonical ops:\n" << compiled.canonical_types;
  std::cout << "\n" << compiled.op_table;
  if (!compiled.decisions.empty()) std::cout << "\nmapping decisions:\n" << compiled.decisions;
  return 0;
}

}  // namespace polyarch::cli
