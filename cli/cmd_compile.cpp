// `polyarch compile`: imports a workload, runs the compiler's passes and shows what comes out.
#include <cstdio>
#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/ir/op_type_counts.h"
#include "compiler/lower/op_table.h"
#include "compiler/lower/pipeline.h"

namespace polyarch::cli {

namespace {

constexpr const char* kCompileHelp =
    R"(usage: polyarch compile --workload W [--dump-ir PASS|import|all]

Imports workload W (a layer-list YAML, a SCALE-Sim topology CSV or an ONNX model) and compiles
it. An ONNX model runs through the pass pipeline

  fold-constants  evaluate constant nodes and exporter shape chains, inferring shapes on the way
  infer-shapes    every tensor's shape and type, checked against the model's declarations
  dce             drop nodes and tensors that no graph output needs
  lower           turn each ONNX node into a canonical op (gemm, conv2d, pool, elementwise,
                  reduce, norm, softmax, embedding, copy)

and prints each pass with the op count before and after it. Layer lists and topologies are
canonical already. Then it prints one row per canonical op (shape, MACs, FLOPs, bytes touched)
and the totals: MACs, FLOPs, bytes and parameters (elements of the weights the ops read). Says
whether the model can be executed numerically (a model whose weights file is absent cannot).

options:
  --workload FILE   .yaml / .yml layer list, .csv SCALE-Sim topology or .onnx model
  --dump-ir WHICH   also print the graph IR, one op per line in topological order: after the
                    pass named WHICH, as imported (import), or after every pass (all)
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
  std::string passes;  // summary lines and any IR dumps
};

// Runs the pipeline when the graph has imported nodes; everything is computed before anything
// is printed, so a bad model fails without partial output.
Compiled compile(ir::Graph graph, const std::optional<std::string>& dump) {
  Compiled compiled{std::move(graph), ""};
  if (dump == "import" || dump == "all") {
    compiled.passes += "--- IR as imported ---\n" + ir::print_graph(compiled.graph);
  }
  if (!lower::needs_lowering(compiled.graph)) {
    if (dump && *dump != "import" && *dump != "all") {
      throw_bad_input({}, "--dump-ir " + *dump +
                              ": this workload is canonical already and runs "
                              "no passes (use --dump-ir import)");
    }
    return compiled;
  }
  passes::PassManager pipeline = lower::standard_pipeline();
  if (dump && *dump != "import") pipeline.dump_after(*dump);
  const std::vector<passes::PassRecord> records = pipeline.run(compiled.graph);
  compiled.passes += "passes:\n" + passes::pass_summary(records);
  for (const passes::PassRecord& record : records) {
    if (record.ir_after)
      compiled.passes += "--- IR after " + record.pass + " ---\n" + *record.ir_after;
  }
  return compiled;
}

}  // namespace

int compile_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kCompileHelp;
    return 0;
  }
  Arguments parsed(args, {{"workload"}, {"dump-ir"}});
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  const std::string workload = parsed.required("workload");
  ir::Graph imported = frontend::load_workload(workload);
  const std::size_t imported_ops = imported.op_count();
  const std::string imported_types = op_type_table(imported);
  const Compiled compiled = compile(std::move(imported), parsed.value("dump-ir"));
  const std::string table =
      lower::format_op_table(lower::op_rows(compiled.graph), lower::graph_totals(compiled.graph));
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
  return 0;
}

}  // namespace polyarch::cli
