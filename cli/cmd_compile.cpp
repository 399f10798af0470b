// `polyarch compile`: imports a workload, runs the compiler's passes and shows what comes out.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "archs/soc/soc_config.h"
#include "archs/unit_explain.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/mapping_search_options.h"
#include "cli/pipeline_flags.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/ir/op_type_counts.h"
#include "compiler/lower/compile_json.h"
#include "compiler/lower/op_table.h"
#include "compiler/lower/pipeline.h"
#include "compiler/passes/registry.h"

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
op (shape, MACs, FLOPs, bytes touched) and the totals: MACs, FLOPs, bytes and parameters
(elements of the weights the ops read). Says whether the model can be executed numerically (a
model whose weights file is absent cannot, nor an .ir file that leaves weight values out).

passes:
)";

constexpr const char* kCompileOptionsHelp =
    R"(
options:
  --workload FILE   .yaml / .yml layer list, .csv SCALE-Sim topology, .onnx model or .ir text IR
  --dump-ir WHICH   also print the graph in the text IR (docs/ir.md): after the pass named
                    WHICH, as imported (import), or after every pass (all)
  --passes LIST     run exactly these passes, comma-separated, in this order (even on a
                    canonical workload), instead of the standard pipeline
  --emit-ir FILE    write the compiled graph in the text IR; FILE is a workload for compile, run,
                    compare and sweeps with the same MACs, bytes and simulation results
  --json FILE       write the pass statistics, the per-op table and the totals as JSON
  --arch FILE       the SoC to map onto (needed by --explain; picks --layout auto's layout)
  --explain         per op: every unit that can run it with its cost; a unit whose kind has a
                    mapping space for the op (systolic, simd, mimd, pim, crossbar, dataflow)
                    gives the best mapping of that space with its latency, energy and bound,
                    others their analytical estimate; the chosen unit, and why it won (compute-,
                    buffer-, DRAM- or NoC-bound, and by how much it beats the runner-up)
  --objective O     latency (default), energy, edp or weighted:L,E
  --search S        the searcher per decision: exhaustive (default), random, genetic,
                    annealing, ranked (the same decisions, and cache entries, as run --search S)
  --search-budget N evaluations per decision for the non-exhaustive searchers (default 2000)
  --cache-dir DIR   where mapping decisions are cached (default $XDG_CACHE_HOME/polyarch)
  --no-cache        search every decision again and store nothing
)";

std::string op_type_table(const ir::Graph& graph) {
  std::string table;
  char line[160];
  std::snprintf(line, sizeof(line), "%-32s %8s %16s\n", "op type", "count", "MACs");
  table += line;
  int64_t total_count = 0;
  int64_t total_macs = 0;
  for (const auto& [type, totals] : ir::op_type_totals(graph)) {
    std::snprintf(line, sizeof(line), "%-32s %8lld %16lld\n", type.c_str(),
                  static_cast<long long>(totals.count), static_cast<long long>(totals.macs));
    table += line;
    total_count += totals.count;
    total_macs += totals.macs;
  }
  std::snprintf(line, sizeof(line), "%-32s %8lld %16lld\n", "total",
                static_cast<long long>(total_count), static_cast<long long>(total_macs));
  return table + line;
}

struct Compiled {
  ir::Graph graph;
  std::vector<passes::PassRecord> records;
  std::string passes;  // summary lines and any IR dumps
};

// What the user asked of the compiler: the passes (nullopt: the standard pipeline when the
// graph has imported nodes) and which IR dump.
struct CompileRequest {
  std::optional<std::vector<std::string>> passes;
  std::optional<std::string> dump;
  lower::PipelineOptions options;
};

// Runs the passes; everything is computed before anything is printed, so a bad model fails
// without partial output.
Compiled compile(ir::Graph graph, const CompileRequest& request) {
  Compiled compiled{std::move(graph), {}, ""};
  const std::optional<std::string>& dump = request.dump;
  if (dump == "import" || dump == "all") {
    compiled.passes += "--- IR as imported ---\n" + ir::print_graph(compiled.graph);
  }
  if (!request.passes && !lower::needs_lowering(compiled.graph)) {
    if (dump && *dump != "import" && *dump != "all") {
      throw_bad_input({}, "--dump-ir " + *dump +
                              ": this workload is canonical already and runs "
                              "no passes (use --dump-ir import, or --passes)");
    }
    return compiled;
  }
  passes::PassManager pipeline = request.passes
                                     ? lower::pipeline_of(*request.passes, request.options)
                                     : lower::standard_pipeline(request.options);
  if (dump && *dump != "import") pipeline.dump_after(*dump);
  compiled.records = pipeline.run(compiled.graph);
  compiled.passes += "passes:\n" + passes::pass_summary(compiled.records);
  for (const passes::PassRecord& record : compiled.records) {
    if (record.ir_after)
      compiled.passes += "--- IR after " + record.pass + " ---\n" + *record.ir_after;
  }
  return compiled;
}

// Writes `text` to `path` (--emit-ir, --json); a file that cannot be written is bad input.
void write_text_file(const std::string& path, const std::string& text, const std::string& flag) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file.flush()) throw_bad_input({path, 0, 0, ""}, flag + ": cannot write this file");
}

// Every unit's option for every op of the compiled graph, then the explanation text. Searching,
// caching and each kind's mapping space live in mapping/ and archs/; this only walks ops and
// units.
std::string explain(const ir::Graph& graph, const Arguments& parsed) {
  const archs::SocConfig soc = archs::load_soc_config(parsed.required("arch"));
  const std::shared_ptr<const mapping::SearchPolicy> policy = parse_explain_search(parsed, 1);
  const archs::MemoryContext memory = soc.memory_context();
  // One decision per (unit, op shape), as `run --search` makes them.
  std::vector<std::unique_ptr<mapping::UnitDecisions>> decisions;
  for (const auto& unit : soc.units) {
    decisions.push_back(std::make_unique<mapping::UnitDecisions>(policy, unit->describe().dump()));
  }
  std::vector<mapping::OpExplanation> ops;
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::Op& op = graph.op(id);
    mapping::OpExplanation explanation{op.name, std::string(ir::op_kind_name(op.kind())), {}};
    for (std::size_t i = 0; i < soc.units.size(); ++i) {
      if (auto option =
              archs::explain_unit_option(*soc.units[i], op, memory, soc.clock_ghz, *decisions[i])) {
        explanation.options.push_back(std::move(*option));
      }
    }
    ops.push_back(std::move(explanation));
  }
  return mapping::format_explanation(ops, policy->objective);
}

}  // namespace

int compile_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kCompileHelp << passes::pass_registry_help() << kCompileOptionsHelp << "\n"
              << kPipelineFlagsHelp;
    return 0;
  }
  std::vector<OptionSpec> specs = {{"workload"}, {"dump-ir"}, {"passes"},        {"emit-ir"},
                                   {"json"},     {"arch"},    {"explain", false}};
  for (OptionSpec& spec : mapping_search_option_specs()) specs.push_back(std::move(spec));
  for (OptionSpec& spec : pipeline_option_specs()) specs.push_back(std::move(spec));
  Arguments parsed(args, specs);
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  const std::string workload = parsed.required("workload");
  ir::Graph imported = frontend::load_workload(workload);
  const std::size_t imported_ops = imported.op_count();
  const std::string imported_types = op_type_table(imported);
  // The target decides the layout pass's choice.
  const std::optional<archs::SocConfig> target =
      parsed.value("arch") ? std::optional(archs::load_soc_config(*parsed.value("arch")))
                           : std::nullopt;
  CompileRequest request;
  if (auto list = parsed.value("passes"))
    request.passes = passes::parse_pass_list(*list, "--passes");
  request.dump = parsed.value("dump-ir");
  request.options = parse_pipeline_options(parsed, target ? &*target : nullptr);
  const Compiled compiled = compile(std::move(imported), request);
  if (auto path = parsed.value("emit-ir")) {
    write_text_file(*path, ir::print_graph(compiled.graph), "--emit-ir");
  }
  if (auto path = parsed.value("json")) {
    write_text_file(*path, lower::compile_json(workload, compiled.graph, compiled.records),
                    "--json");
  }
  const std::string table =
      lower::format_op_table(lower::op_rows(compiled.graph), lower::graph_totals(compiled.graph));
  const std::string decisions = parsed.flag("explain") ? explain(compiled.graph, parsed) : "";
  std::cout << "workload: " << workload << " (graph '" << compiled.graph.name() << "', "
            << imported_ops << " ops)\n";
  std::cout << "functional execution: "
            << (compiled.graph.functional_available()
                    ? "available"
                    : "unavailable: " + compiled.graph.functional_unavailable_reason())
            << "\n";
  std::cout << "\nimported op types:\n" << imported_types;
  if (!compiled.passes.empty()) std::cout << "\n" << compiled.passes;
  std::cout << "\ncanonical ops:\n" << op_type_table(compiled.graph);
  std::cout << "\n" << table;
  if (!decisions.empty()) std::cout << "\nmapping decisions:\n" << decisions;
  return 0;
}

}  // namespace polyarch::cli
