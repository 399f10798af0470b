#include "driver/schedule_plan.h"

#include <algorithm>

#include "driver/power_capped_schedule.h"

namespace polyarch::driver {

mapping::TransferModel transfer_model(const archs::SocConfig& soc) {
  mapping::TransferModel transfer;
  transfer.hand_over_s =
      static_cast<double>(soc.interconnect.latency_cycles) / (soc.clock_ghz * 1e9);
  if (soc.interconnect.transfers == "copy") {
    transfer.path = mapping::TransferPath::kCopy;
    transfer.bytes_per_second = soc.memory_context().dram_bytes_per_second;
  }
  return transfer;
}

std::vector<const ir::Op*> program_ops(const ir::Graph& graph) {
  std::vector<const ir::Op*> ops;
  for (ir::NodeId id : graph.topological_ops()) ops.push_back(&graph.op(id));
  return ops;
}

std::vector<mapping::UnitCapability> unit_capabilities(const archs::SocConfig& soc,
                                                       const std::vector<const ir::Op*>& program) {
  std::vector<mapping::UnitCapability> capabilities;
  for (const auto& unit : soc.units) {
    const archs::UnitConfig* config = unit.get();
    capabilities.push_back(
        {config->name(), config->kind(),
         [config](const ir::Op& op) { return config->supports(op); },
         config->program_estimates(program, soc.memory_context(), soc.clock_ghz).seconds});
  }
  return capabilities;
}

std::vector<mapping::UnitCapability> unit_capabilities(const archs::SocConfig& soc) {
  return unit_capabilities(soc, std::vector<const ir::Op*>{});
}

std::vector<mapping::UnitCapability> unit_capabilities(const archs::SocConfig& soc,
                                                       const ir::Graph& graph) {
  return unit_capabilities(soc, program_ops(graph));
}

namespace {

// Each op on the first unit that supports it, the graph once per micro-batch, each unit taking
// its ops micro-batch by micro-batch in topological order.
mapping::Program first_fit_program(const ir::Graph& graph,
                                   const std::vector<mapping::UnitCapability>& units,
                                   int micro_batches) {
  if (micro_batches <= 1) return mapping::partition_graph(graph, units);
  mapping::Program program =
      mapping::replicate_micro_batches(mapping::partition_graph(graph, units), micro_batches);
  for (std::size_t index = 0; index < program.ops.size(); ++index) {
    program.per_unit[static_cast<std::size_t>(program.ops[index].unit_index)].push_back(
        static_cast<int>(index));
  }
  return program;
}

sim::ScheduleTrace trace_of(const mapping::TransferModel& transfer,
                            const mapping::TransferTotals& totals) {
  sim::ScheduleTrace trace;
  trace.transfer_path = std::string(mapping::transfer_path_name(transfer.path));
  trace.hand_over_s = transfer.hand_over_s;
  trace.copy_bandwidth_gbps = transfer.bytes_per_second / 1e9;
  trace.transfers = totals.count;
  trace.transfer_bytes = totals.bytes;
  trace.transfer_s = totals.seconds;
  trace.transfer_copy_s = totals.copy_seconds;
  return trace;
}

}  // namespace

PlannedProgram plan_program(const archs::SocConfig& soc, const ir::Graph& graph,
                            int micro_batches) {
  micro_batches = std::max(1, micro_batches);
  const std::vector<mapping::UnitCapability> units = unit_capabilities(soc, graph);
  mapping::ScheduleOptions options;
  options.transfer = transfer_model(soc);
  options.micro_batches = micro_batches;
  PlannedProgram plan;
  std::optional<mapping::Schedule> schedule;
  if (soc.units.size() > 1) {
    if (soc.power_cap_w) {
      if (std::optional<CappedSchedule> capped =
              schedule_under_power_cap(soc, graph, units, options, *soc.power_cap_w)) {
        schedule = std::move(capped->schedule);
        plan.power_cap = capped->trace;
      }
    } else {
      schedule = mapping::schedule_heft(graph, units, options);
    }
  }
  if (schedule) {
    plan.program = std::move(schedule->program);
    sim::ScheduleTrace trace = trace_of(options.transfer, schedule->transfers);
    trace.scheduler = "heft";
    trace.planned_makespan_s = schedule->makespan_s;
    mapping::ScheduleOptions free_transfers = options;
    free_transfers.transfer = {};
    if (const auto free_plan = mapping::schedule_heft(graph, units, free_transfers)) {
      trace.planned_makespan_without_transfers_s = free_plan->makespan_s;
    }
    for (const mapping::UnitCapability& unit : units) {
      if (const std::optional<double> alone = mapping::single_unit_makespan(graph, unit)) {
        trace.baselines.push_back({unit.name, *alone * micro_batches});
      }
    }
    plan.schedule = std::move(trace);
    return plan;
  }
  plan.program = first_fit_program(graph, units, micro_batches);
  const mapping::TransferTotals totals =
      mapping::apply_transfers(graph, plan.program, options.transfer);
  if (soc.units.size() > 1 || micro_batches > 1) {
    plan.schedule = trace_of(options.transfer, totals);
    plan.schedule->scheduler = "first_fit";
  }
  return plan;
}

sim::PipelineTrace pipeline_trace(const sim::RunResult& pipelined, int micro_batches,
                                  double single_latency_s, double planned_makespan_s,
                                  double planned_single_makespan_s) {
  sim::PipelineTrace trace;
  trace.micro_batches = micro_batches;
  trace.makespan_s = pipelined.summary.latency_s;
  trace.unpipelined_makespan_s = single_latency_s * micro_batches;
  trace.planned_makespan_s = planned_makespan_s;
  trace.planned_unpipelined_makespan_s = planned_single_makespan_s * micro_batches;
  if (trace.makespan_s > 0) trace.throughput_per_s = micro_batches / trace.makespan_s;
  if (single_latency_s > 0) trace.unpipelined_throughput_per_s = 1.0 / single_latency_s;
  const auto count = static_cast<std::size_t>(micro_batches);
  std::vector<double> last_end(count, 0.0);
  for (const sim::OpResult& op : pipelined.ops) {
    const auto batch = static_cast<std::size_t>(op.micro_batch);
    if (batch >= count) continue;
    last_end[batch] =
        std::max(last_end[batch], static_cast<double>(op.end_cycle) / (op.unit_clock_ghz * 1e9));
  }
  // A batch's inputs are all there at the start: each waits until its own result is out.
  double end_sum = 0;
  for (double end : last_end) end_sum += end;
  trace.mean_latency_s = end_sum / static_cast<double>(count);
  trace.unpipelined_latency_s = single_latency_s * (micro_batches + 1) / 2.0;
  std::vector<double> ends = last_end;
  std::sort(ends.begin(), ends.end());
  const double span = ends.back() - ends.front();
  trace.steady_state_throughput_per_s =
      count > 1 && span > 0 ? static_cast<double>(count - 1) / span : trace.throughput_per_s;
  return trace;
}

}  // namespace polyarch::driver
