#include "reports/schedule_text.h"

#include <cstdio>

namespace polyarch::reports {

namespace {

std::string format(const char* pattern, auto... values) {
  char line[256];
  std::snprintf(line, sizeof line, pattern, values...);
  return line;
}

}  // namespace

std::string schedule_summary(const sim::RunResult& result) {
  if (!result.schedule) return "";
  const sim::ScheduleTrace& schedule = *result.schedule;
  std::string text;
  text += format(
      "schedule: %s; %lld transfers between units, %.3f MB over %s, %.3f us (%.3f us "
      "copying)\n",
      schedule.scheduler.c_str(), static_cast<long long>(schedule.transfers),
      static_cast<double>(schedule.transfer_bytes) / 1e6, schedule.transfer_path.c_str(),
      schedule.transfer_s * 1e6, schedule.transfer_copy_s * 1e6);
  if (schedule.scheduler == "heft") {
    text += format("  planned makespan %.3f ms (%.3f ms with free transfers)\n",
                   schedule.planned_makespan_s * 1e3,
                   schedule.planned_makespan_without_transfers_s * 1e3);
    for (const sim::UnitBaseline& baseline : schedule.baselines) {
      text += format("  %s alone: planned %.3f ms (%.2fx the schedule)\n", baseline.unit.c_str(),
                     baseline.planned_makespan_s * 1e3,
                     schedule.planned_makespan_s > 0
                         ? baseline.planned_makespan_s / schedule.planned_makespan_s
                         : 0.0);
    }
  }
  if (schedule.pipeline) {
    const sim::PipelineTrace& pipeline = *schedule.pipeline;
    text += format(
        "  pipeline of %d micro-batches: %.3f ms vs %.3f ms one after another "
        "(%.2fx); %.1f/s (steady state %.1f/s) vs %.1f/s; mean latency %.3f ms vs %.3f ms\n",
        pipeline.micro_batches, pipeline.makespan_s * 1e3, pipeline.unpipelined_makespan_s * 1e3,
        pipeline.makespan_s > 0 ? pipeline.unpipelined_makespan_s / pipeline.makespan_s : 0.0,
        pipeline.throughput_per_s, pipeline.steady_state_throughput_per_s,
        pipeline.unpipelined_throughput_per_s, pipeline.mean_latency_s * 1e3,
        pipeline.unpipelined_latency_s * 1e3);
  }
  return text;
}

}  // namespace polyarch::reports
