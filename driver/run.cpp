#include "driver/run.h"

#include <algorithm>

#include "base/sha256.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/pipeline.h"
#include "driver/attention_forms.h"
#include "driver/op_dtypes.h"
#include "driver/compile_target.h"
#include "driver/power_capped_schedule.h"
#include "driver/schedule_plan.h"
#include "driver/search_options.h"
#include "driver/unsupported_ops.h"
#include "sim/dvfs/dvfs_controller.h"
#include "sim/kernel/simulation.h"
#include "sim/physics/run_physics.h"

namespace polyarch::driver {

FittedGraph fit_graph_to_soc(const archs::SocConfig& soc, ir::Graph& graph, bool search_forms,
                             bool only_supported) {
  FittedGraph fitted;
  fitted.attention_forms = choose_attention_forms(soc, graph, search_forms);
  if (only_supported) {
    fitted.skipped_ops = skip_unsupported_ops(soc, graph);
  } else {
    std::vector<std::string> details;
    for (const sim::AttentionForm& form : fitted.attention_forms) {
      if (!form.runnable) {
        details.push_back("attention '" + form.op + "' " + form.reason);
      }
    }
    refuse_unsupported_ops(soc, graph, details);
  }
  return fitted;
}

sim::RunResult simulate_workload(const archs::SocConfig& soc, const ir::Graph& graph,
                                 double power_window_s, int micro_batches) {
  micro_batches = std::max(1, micro_batches);
  // Several units: each op where it finishes earliest (HEFT), when every unit can estimate;
  // otherwise, and with one unit, the first unit that supports it.
  PlannedProgram plan = plan_program(soc, graph, micro_batches);
  sim::RunResult result;
  if (soc.dvfs) {
    result = sim::simulate_with_dvfs(soc.physics(), soc.system_spec(), plan.program, graph,
                                     power_window_s);
  } else {
    result = sim::simulate(soc.system_spec(), plan.program, graph);
    sim::add_energy_power_thermal(soc.physics(), result, power_window_s,
                                  sim::thermal::InitialTemperature::kSteadyEveryNode);
  }
  if (plan.power_cap) {
    plan.power_cap->measured_peak_w = peak_trace_power_w(result.power);
    result.power_cap = plan.power_cap;
  }
  if (plan.schedule && micro_batches > 1) {
    // The un-pipelined reference: one input simulated alone, its inputs one after another.
    const PlannedProgram single = plan_program(soc, graph, 1);
    const double single_latency_s =
        sim::simulate(soc.system_spec(), single.program, graph).summary.latency_s;
    plan.schedule->pipeline =
        pipeline_trace(result, micro_batches, single_latency_s, plan.schedule->planned_makespan_s,
                       single.schedule ? single.schedule->planned_makespan_s : 0.0);
  }
  result.schedule = std::move(plan.schedule);
  result.arch = soc.describe();
  record_op_dtypes(soc, graph, result);
  return result;
}

sim::RunResult run(const RunRequest& request) {
  archs::SocConfig soc = archs::load_soc_config(request.arch_path);
  soc.use_mapping_search(request.mapping_search);
  ir::Graph graph = frontend::load_workload(request.workload_path);
  // An imported model (ONNX) goes through the compiler's standard passes to canonical ops.
  if (lower::needs_lowering(graph)) {
    lower::PipelineOptions compile = request.compile;
    if (request.conv_layout_from_target) compile.conv_layout = target_conv_layout(soc);
    lower::standard_pipeline(compile).run(graph);
  }
  FittedGraph fitted = fit_graph_to_soc(soc, graph, request.mapping_search != nullptr,
                                        request.only_supported);
  sim::RunResult result =
      simulate_workload(soc, graph, request.power_window_s, request.micro_batches);
  result.skipped_ops = std::move(fitted.skipped_ops);
  result.attention_forms = std::move(fitted.attention_forms);
  result.provenance.polyarch_version = POLYARCH_VERSION;
  result.provenance.arch_sha256 = sha256_file_hex(request.arch_path);
  result.provenance.workload_sha256 = frontend::workload_sha256(request.workload_path);
  result.provenance.seed = request.seed;
  result.provenance.arch_name = soc.name;
  result.provenance.workload_name = graph.name();
  result.mapping_mode = mapping_mode_json(request.mapping_search.get());
  return result;
}

}  // namespace polyarch::driver
