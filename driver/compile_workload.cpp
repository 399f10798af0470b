#include "driver/compile_workload.h"

#include <cstdio>

#include "archs/unit_explain.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/ir/op_type_counts.h"
#include "compiler/lower/compile_json.h"
#include "compiler/lower/op_table.h"
#include "compiler/passes/registry.h"
#include "driver/attention_forms.h"
#include "driver/schedule_plan.h"

namespace polyarch::driver {

namespace {

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

// Runs the passes: the chosen list, or the standard pipeline when the graph has imported nodes.
Compiled run_passes(ir::Graph graph, const std::optional<std::vector<std::string>>& pass_list,
                    const std::optional<std::string>& dump,
                    const lower::PipelineOptions& options) {
  Compiled compiled{std::move(graph), {}, ""};
  if (dump == "import" || dump == "all") {
    compiled.passes += "--- IR as imported ---\n" + ir::print_graph(compiled.graph);
  }
  if (!pass_list && !lower::needs_lowering(compiled.graph)) {
    if (dump && *dump != "import" && *dump != "all") {
      throw_bad_input({}, "--dump-ir " + *dump +
                              ": this workload is canonical already and runs "
                              "no passes (use --dump-ir import, or --passes)");
    }
    return compiled;
  }
  passes::PassManager pipeline =
      pass_list ? lower::pipeline_of(*pass_list, options) : lower::standard_pipeline(options);
  if (dump && *dump != "import") pipeline.dump_after(*dump);
  compiled.records = pipeline.run(compiled.graph);
  compiled.passes += "passes:\n" + passes::pass_summary(compiled.records);
  for (const passes::PassRecord& record : compiled.records) {
    if (record.ir_after)
      compiled.passes += "--- IR after " + record.pass + " ---\n" + *record.ir_after;
  }
  return compiled;
}

struct Explanation {
  std::string text;
  nlohmann::ordered_json json;
};

// Every unit's option for every op of the compiled graph, then the explanation as text and as
// JSON. Searching, caching and each kind's mapping space live in mapping/ and archs/; this only
// walks ops and units. Attention ops are first fitted to the SoC as a searched run fits them
// (fused or unfused), so the ops explained are the ops that run.
Explanation explain(const ir::Graph& compiled, archs::SocConfig& soc,
                    const SearchOptions& search) {
  const std::shared_ptr<const mapping::SearchPolicy> policy = explain_search_policy(search, 1);
  soc.use_mapping_search(policy);
  ir::Graph graph = compiled;
  const std::string forms = attention_forms_text(choose_attention_forms(soc, graph, true));
  const archs::MemoryContext memory = soc.memory_context();
  // Each unit sees the ops as it would run them within this program (the arrays a crossbar
  // shares among them), as the run's schedule and simulation do.
  const std::vector<const ir::Op*> program = program_ops(graph);
  // One decision per (unit, op shape), as `run --search` makes them.
  std::vector<std::unique_ptr<mapping::UnitDecisions>> decisions;
  std::vector<archs::ProgramEstimates> estimates;
  for (const auto& unit : soc.units) {
    decisions.push_back(std::make_unique<mapping::UnitDecisions>(policy, unit->describe().dump()));
    estimates.push_back(unit->program_estimates(program, memory, soc.clock_ghz));
  }
  std::vector<mapping::OpExplanation> ops;
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::Op& op = graph.op(id);
    mapping::OpExplanation explanation{op.name, std::string(ir::op_kind_name(op.kind())), {}};
    for (std::size_t i = 0; i < soc.units.size(); ++i) {
      if (auto option =
              archs::explain_unit_option(*soc.units[i], estimates[i], op, *decisions[i])) {
        explanation.options.push_back(std::move(*option));
      }
    }
    ops.push_back(std::move(explanation));
  }
  return {forms + mapping::format_explanation(ops, policy->objective),
          mapping::explanation_json(ops, policy->objective)};
}

}  // namespace

CompileOutcome compile_workload(const CompileRequest& request) {
  ir::Graph imported = frontend::load_workload(request.workload);
  CompileOutcome outcome;
  outcome.imported_ops = imported.op_count();
  outcome.imported_types = op_type_table(imported);
  // The target decides the layout pass's choice.
  std::optional<archs::SocConfig> target =
      request.arch ? std::optional(archs::load_soc_config(*request.arch)) : std::nullopt;
  std::optional<std::vector<std::string>> pass_list;
  if (request.passes) pass_list = passes::parse_pass_list(*request.passes, "--passes");
  const lower::PipelineOptions options =
      pipeline_options(request.flags, target ? &*target : nullptr);
  const Compiled compiled = run_passes(std::move(imported), pass_list, request.dump, options);
  const ir::Graph& graph = compiled.graph;
  outcome.graph_name = graph.name();
  if (!graph.functional_available()) {
    outcome.functional_unavailable = graph.functional_unavailable_reason();
  }
  outcome.passes = compiled.passes;
  outcome.canonical_types = op_type_table(graph);
  outcome.op_table = lower::format_op_table(lower::op_rows(graph), lower::graph_totals(graph));
  std::optional<Explanation> explanation;
  if (request.explain) {
    explanation = explain(graph, *target, request.search);
    outcome.decisions = explanation->text;
  }
  if (request.emit_ir) outcome.ir = ir::print_graph(graph);
  if (request.emit_json) {
    nlohmann::ordered_json document =
        lower::compile_json(request.workload.string(), graph, compiled.records);
    if (explanation) document["explain"] = explanation->json;
    outcome.json = document.dump(2) + "\n";
  }
  return outcome;
}

}  // namespace polyarch::driver
