#include "reports/pipeline.h"

#include <algorithm>

#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/pipeline.h"
#include "compiler/support/sha256.h"
#include "mapping/partition/list_scheduler.h"
#include "mapping/program/program.h"
#include "reports/dvfs_controller.h"
#include "reports/power_capped_schedule.h"
#include "reports/run_physics.h"
#include "sim/kernel/simulation.h"

namespace polyarch::reports {

sim::RunResult simulate_workload(const archs::SocConfig& soc, const ir::Graph& graph,
                                 double power_window_s) {
  const archs::MemoryContext memory = soc.memory_context();
  const double soc_clock_ghz = soc.clock_ghz;
  std::vector<mapping::UnitCapability> capabilities;
  for (const auto& unit : soc.units) {
    const archs::UnitConfig* config = unit.get();
    capabilities.push_back({config->name(), config->kind(),
                            [config](const ir::Op& op) { return config->supports(op); },
                            [config, memory, soc_clock_ghz](const ir::Op& op) {
                              return config->estimate_seconds(op, memory, soc_clock_ghz);
                            }});
  }
  // Several units: each op where it finishes earliest (HEFT), when every unit can estimate;
  // otherwise, and with one unit, the first unit that supports it.
  std::optional<mapping::Schedule> schedule;
  std::optional<sim::PowerCapTrace> power_cap;
  if (soc.units.size() > 1) {
    const double hand_over_s =
        static_cast<double>(soc.interconnect.latency_cycles) / (soc_clock_ghz * 1e9);
    if (soc.power_cap_w) {
      if (std::optional<CappedSchedule> capped = schedule_under_power_cap(
              soc, graph, capabilities, hand_over_s, *soc.power_cap_w)) {
        schedule = std::move(capped->schedule);
        power_cap = capped->trace;
      }
    } else {
      schedule = mapping::schedule_heft(graph, capabilities, hand_over_s);
    }
  }
  mapping::Program program =
      schedule ? std::move(schedule->program) : mapping::partition_graph(graph, capabilities);
  sim::RunResult result;
  if (soc.dvfs) {
    result = simulate_with_dvfs(soc, program, graph, power_window_s);
  } else {
    result = sim::simulate(soc.system_spec(), program, graph);
    add_energy_power_thermal(soc, result, power_window_s,
                             sim::thermal::InitialTemperature::kSteadyEveryNode);
  }
  if (power_cap) {
    power_cap->measured_peak_w = peak_trace_power_w(result.power);
    result.power_cap = power_cap;
  }
  return result;
}

sim::RunResult run_pipeline(const RunRequest& request) {
  archs::SocConfig soc = archs::load_soc_config(request.arch_path);
  if (request.mapping_search) {
    for (auto& unit : soc.units) unit->use_mapping_search(request.mapping_search);
  }
  ir::Graph graph = frontend::load_workload(request.workload_path);
  // An imported model (ONNX) goes through the compiler's standard passes to canonical ops.
  if (lower::needs_lowering(graph)) lower::standard_pipeline(request.compile).run(graph);
  sim::RunResult result = simulate_workload(soc, graph, request.power_window_s);
  result.provenance.polyarch_version = POLYARCH_VERSION;
  result.provenance.arch_sha256 = sha256_file_hex(request.arch_path);
  result.provenance.workload_sha256 = frontend::workload_sha256(request.workload_path);
  result.provenance.seed = request.seed;
  result.provenance.arch_name = soc.name;
  result.provenance.workload_name = graph.name();
  return result;
}

}  // namespace polyarch::reports
