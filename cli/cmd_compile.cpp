// `polyarch compile`: imports a workload and shows what the compiler sees.
#include <cstdio>
#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/ir/op_type_counts.h"

namespace polyarch::cli {

namespace {

constexpr const char* kCompileHelp = R"(usage: polyarch compile --workload W [--dump-ir]

Imports workload W (a layer-list YAML, a SCALE-Sim topology CSV or an ONNX model) and prints a
table of its op types with their counts and MACs. ONNX nodes appear as onnx:<op type> until
lowering to canonical ops, which comes with the compiler passes. Says whether the model can be
executed numerically (a model whose weights file is absent cannot).

options:
  --workload FILE   .yaml / .yml layer list, .csv SCALE-Sim topology or .onnx model
  --dump-ir         also print the graph IR, one op per line in topological order
)";

bool has_frontend_ops(const ir::Graph& graph) {
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) && graph.op(id).kind() == ir::OpKind::kFrontend) return true;
  }
  return false;
}

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
  table += line;
  if (has_frontend_ops(graph)) {
    table +=
        "(onnx:* ops count 0 MACs: their work is known once they are lowered to canonical "
        "ops)\n";
  }
  return table;
}

}  // namespace

int compile_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kCompileHelp;
    return 0;
  }
  Arguments parsed(args, {{"workload"}, {"dump-ir", false}});
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  const std::string workload = parsed.required("workload");
  const ir::Graph graph = frontend::load_workload(workload);
  // Both before printing anything, so a bad graph (a cycle) fails without partial output.
  const std::string dump = parsed.flag("dump-ir") ? ir::print_graph(graph) : "";
  const std::string table = op_type_table(graph);
  std::cout << "workload: " << workload << " (graph '" << graph.name() << "', " << graph.op_count()
            << " ops)\n";
  std::cout << "functional execution: "
            << (graph.functional_available()
                    ? "available"
                    : "unavailable: " + graph.functional_unavailable_reason())
            << "\n";
  if (!dump.empty()) std::cout << "\n" << dump;
  std::cout << "\n" << table;
  return 0;
}

}  // namespace polyarch::cli
