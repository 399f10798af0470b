#include "reports/json_report.h"

#include <map>

#include "reports/memory_json.h"

namespace polyarch::reports {

namespace {

nlohmann::ordered_json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

// Actions in J, or null when the unit kind has no energy model (an empty map).
nlohmann::ordered_json energy_by_action_json(const sim::EnergyByAction& energy) {
  if (energy.empty()) return nullptr;
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const auto& [action, joules] : energy) json[action] = joules;
  return json;
}

nlohmann::ordered_json summary_json(const sim::Summary& summary) {
  nlohmann::ordered_json json = {{"total_cycles", summary.total_cycles},
                                 {"clock_ghz", summary.clock_ghz},
                                 {"latency_s", summary.latency_s},
                                 {"energy_j", optional_number(summary.energy_j)},
                                 {"avg_power_w", optional_number(summary.avg_power_w)}};
  // Only where the arch states a board: other reports keep the fields they always had.
  if (summary.board_power_w) json["board_power_w"] = *summary.board_power_w;
  json["peak_temp_c"] = optional_number(summary.peak_temp_c);
  json["dram_bytes_read"] = summary.dram_bytes_read;
  json["dram_bytes_written"] = summary.dram_bytes_written;
  json["energy_by_action"] = energy_by_action_json(summary.energy_by_action);
  json["technology"] = summary.technology;
  json["energy_notes"] = summary.energy_notes;
  return json;
}

// MACs by the type the units computed each op in (after any conversion), types in name order.
nlohmann::ordered_json macs_by_type_json(const std::vector<sim::OpResult>& ops) {
  std::map<std::string, int64_t> macs;
  for (const sim::OpResult& op : ops) {
    if (op.macs > 0) macs[op.dtype.empty() ? "unknown" : op.dtype] += op.macs;
  }
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const auto& [type, count] : macs) json[type] = count;
  return json;
}

// The format conversions the unit performed for the op and what they cost; null without any.
nlohmann::ordered_json conversion_json(const sim::OpResult& op) {
  if (op.converted_elements == 0) return nullptr;
  const auto energy = op.energy_by_action.find("convert");
  return {{"elements", op.converted_elements},
          {"cycles", op.conversion_cycles},
          {"seconds", static_cast<double>(op.conversion_cycles) / (op.unit_clock_ghz * 1e9)},
          {"energy_j", energy == op.energy_by_action.end() ? nlohmann::ordered_json(nullptr)
                                                           : nlohmann::ordered_json(energy->second)}};
}

nlohmann::ordered_json op_json(const sim::OpResult& op) {
  nlohmann::ordered_json sram = nlohmann::ordered_json::object();
  for (const auto& [buffer, accesses] : op.sram) {
    sram[buffer] = {{"reads", accesses.reads}, {"writes", accesses.writes}};
  }
  double seconds = op.latency_s();
  double dram_bytes = static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);
  return {{"name", op.name},
          {"kind", op.kind},
          {"unit", op.unit},
          {"start_cycle", op.start_cycle},
          {"end_cycle", op.end_cycle},
          {"latency_s", seconds},
          {"compute_cycles", op.compute_cycles},
          {"stall_cycles", op.stall_cycles},
          {"total_cycles", op.total_cycles},
          {"macs", op.macs},
          {"dtype", op.dtype.empty() ? nlohmann::ordered_json(nullptr)
                                     : nlohmann::ordered_json(op.dtype)},
          {"converted_from", op.converted_from.empty()
                                 ? nlohmann::ordered_json(nullptr)
                                 : nlohmann::ordered_json(op.converted_from)},
          {"conversion", conversion_json(op)},
          {"compute_utilization", op.utilization},
          {"mapping_efficiency", op.mapping_efficiency},
          {"dram_bytes_read", op.dram_bytes_read},
          {"dram_bytes_written", op.dram_bytes_written},
          {"avg_dram_bandwidth_gbps", seconds > 0 ? dram_bytes / seconds / 1e9 : 0.0},
          {"sram", sram},
          {"energy_j", optional_number(op.energy_j)},
          {"energy_by_action", energy_by_action_json(op.energy_by_action)},
          {"mapping", op.mapping},
          {"bound", op.bound.empty() ? nlohmann::ordered_json(nullptr)
                                     : nlohmann::ordered_json(op.bound)},
          {"roofline", op.roofline}};
}

nlohmann::ordered_json unit_json(const sim::UnitResult& unit) {
  return {{"name", unit.name},
          {"kind", unit.kind},
          {"clock_ghz", unit.clock_ghz},
          {"busy_cycles", unit.busy_cycles},
          {"total_cycles", unit.total_cycles},
          {"busy_fraction", unit.utilization},
          {"energy_j", optional_number(unit.energy_j)},
          {"energy_by_action", energy_by_action_json(unit.energy_by_action)},
          {"area_mm2", optional_number(unit.area_mm2)}};
}

nlohmann::ordered_json power_json(const std::optional<sim::PowerTrace>& power) {
  if (!power) return nullptr;
  nlohmann::ordered_json watts = nlohmann::ordered_json::object();
  for (std::size_t block = 0; block < power->blocks.size(); ++block) {
    watts[power->blocks[block]] = power->watts[block];
  }
  return {{"window_s", power->window_s}, {"watts", watts}};
}

nlohmann::ordered_json power_cap_json(const sim::PowerCapTrace& cap) {
  nlohmann::ordered_json json = {{"cap_w", cap.cap_w},
                                 {"static_w", cap.static_w},
                                 {"planned_peak_w", cap.planned_peak_w},
                                 {"uncapped_planned_peak_w", cap.uncapped_planned_peak_w},
                                 {"max_op_w", cap.max_op_w},
                                 {"planned_makespan_s", cap.planned_makespan_s},
                                 {"uncapped_planned_makespan_s", cap.uncapped_planned_makespan_s},
                                 {"serialised", cap.serialised},
                                 {"ops_over_cap", cap.ops_over_cap}};
  json["measured_peak_w"] =
      cap.measured_peak_w ? nlohmann::ordered_json(*cap.measured_peak_w) : nullptr;
  return json;
}

nlohmann::ordered_json pipeline_json(const sim::PipelineTrace& pipeline) {
  return {{"micro_batches", pipeline.micro_batches},
          {"makespan_s", pipeline.makespan_s},
          {"unpipelined_makespan_s", pipeline.unpipelined_makespan_s},
          {"speedup", pipeline.makespan_s > 0
                          ? nlohmann::ordered_json(pipeline.unpipelined_makespan_s /
                                                   pipeline.makespan_s)
                          : nlohmann::ordered_json(nullptr)},
          {"throughput_per_s", pipeline.throughput_per_s},
          {"unpipelined_throughput_per_s", pipeline.unpipelined_throughput_per_s},
          {"steady_state_throughput_per_s", pipeline.steady_state_throughput_per_s},
          {"mean_latency_s", pipeline.mean_latency_s},
          {"unpipelined_latency_s", pipeline.unpipelined_latency_s},
          {"planned_makespan_s", pipeline.planned_makespan_s},
          {"planned_unpipelined_makespan_s", pipeline.planned_unpipelined_makespan_s}};
}

nlohmann::ordered_json schedule_json(const sim::ScheduleTrace& schedule) {
  const bool planned = schedule.scheduler == "heft";
  const auto planned_number = [planned](double value) {
    return planned ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json json = {
      {"scheduler", schedule.scheduler},
      {"planned_makespan_s", planned_number(schedule.planned_makespan_s)},
      {"planned_makespan_without_transfers_s",
       planned_number(schedule.planned_makespan_without_transfers_s)},
      {"transfers",
       {{"path", schedule.transfer_path},
        {"hand_over_s", schedule.hand_over_s},
        {"copy_bandwidth_gbps", schedule.copy_bandwidth_gbps},
        {"count", schedule.transfers},
        {"bytes", schedule.transfer_bytes},
        {"seconds", schedule.transfer_s},
        {"copy_seconds", schedule.transfer_copy_s}}}};
  nlohmann::ordered_json baselines = nlohmann::ordered_json::array();
  for (const sim::UnitBaseline& baseline : schedule.baselines) {
    baselines.push_back(
        {{"unit", baseline.unit},
         {"planned_makespan_s", baseline.planned_makespan_s},
         {"speedup", planned && schedule.planned_makespan_s > 0
                         ? nlohmann::ordered_json(baseline.planned_makespan_s /
                                                  schedule.planned_makespan_s)
                         : nlohmann::ordered_json(nullptr)}});
  }
  json["single_unit_baselines"] = baselines;
  json["pipeline"] = schedule.pipeline ? pipeline_json(*schedule.pipeline) : nullptr;
  return json;
}

nlohmann::ordered_json dvfs_json(const sim::DvfsTrace& dvfs) {
  nlohmann::ordered_json units = nlohmann::ordered_json::object();
  for (const sim::DvfsUnitTrace& unit : dvfs.units) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (std::size_t step = 0; step < unit.step_level.size(); ++step) {
      steps.push_back({{"from_s", unit.step_from_s[step]}, {"level", unit.step_level[step]}});
    }
    units[unit.unit] = {{"throttled_fraction", unit.throttled_fraction}, {"steps", steps}};
  }
  return {{"iterations", dvfs.iterations}, {"settled", dvfs.settled}, {"units", units}};
}

nlohmann::ordered_json thermal_json(const std::optional<sim::ThermalTrace>& thermal) {
  if (!thermal) return nullptr;
  nlohmann::ordered_json steady = nlohmann::ordered_json::object();
  nlohmann::ordered_json celsius = nlohmann::ordered_json::object();
  for (std::size_t block = 0; block < thermal->blocks.size(); ++block) {
    steady[thermal->blocks[block]] = thermal->steady_c[block];
    celsius[thermal->blocks[block]] = thermal->celsius[block];
  }
  nlohmann::ordered_json json = {
      {"floorplan", thermal->floorplan}, {"steady_c", steady}, {"celsius", celsius}};
  if (thermal->leakage) {
    nlohmann::ordered_json factors = nlohmann::ordered_json::object();
    for (std::size_t block = 0; block < thermal->blocks.size(); ++block) {
      factors[thermal->blocks[block]] = thermal->leakage->mean_factor[block];
    }
    json["leakage_feedback"] = {{"iterations", thermal->leakage->iterations},
                                {"converged", thermal->leakage->converged},
                                {"runaway", thermal->leakage->runaway},
                                {"mean_factor", factors}};
  }
  return json;
}

}  // namespace

nlohmann::ordered_json report_json(const sim::RunResult& result) {
  nlohmann::ordered_json report;
  report["schema"] = kReportSchema;
  report["summary"] = summary_json(result.summary);
  report["summary"]["macs_by_type"] = macs_by_type_json(result.ops);
  report["ops"] = nlohmann::ordered_json::array();
  for (const sim::OpResult& op : result.ops) report["ops"].push_back(op_json(op));
  report["units"] = nlohmann::ordered_json::array();
  for (const sim::UnitResult& unit : result.units) report["units"].push_back(unit_json(unit));
  report["power_trace"] = power_json(result.power);
  report["thermal"] = thermal_json(result.thermal);
  if (result.dvfs) report["dvfs"] = dvfs_json(*result.dvfs);
  if (result.power_cap) report["power_cap"] = power_cap_json(*result.power_cap);
  if (result.schedule) report["schedule"] = schedule_json(*result.schedule);
  if (result.memory) report["memory"] = memory_json(*result.memory);
  if (!result.skipped_ops.empty()) {
    report["skipped_ops"] = nlohmann::ordered_json::array();
    for (const sim::SkippedOp& op : result.skipped_ops) {
      report["skipped_ops"].push_back(
          {{"name", op.name}, {"kind", op.kind}, {"macs", op.macs}, {"bytes", op.bytes}});
    }
  }
  if (!result.attention_forms.empty()) {
    report["attention_forms"] = nlohmann::ordered_json::array();
    for (const sim::AttentionForm& form : result.attention_forms) {
      nlohmann::ordered_json entry = {{"op", form.op}, {"form", form.form}};
      entry["fused_estimate_s"] =
          form.fused_estimate_s ? nlohmann::ordered_json(*form.fused_estimate_s) : nullptr;
      entry["unfused_estimate_s"] =
          form.unfused_estimate_s ? nlohmann::ordered_json(*form.unfused_estimate_s) : nullptr;
      entry["reason"] = form.reason;
      report["attention_forms"].push_back(std::move(entry));
    }
  }
  const sim::Provenance& provenance = result.provenance;
  report["provenance"] = {{"polyarch_version", provenance.polyarch_version},
                          {"arch_sha256", provenance.arch_sha256},
                          {"workload_sha256", provenance.workload_sha256},
                          {"seed", provenance.seed},
                          {"arch_name", provenance.arch_name},
                          {"workload_name", provenance.workload_name}};
  if (!result.mapping_mode.is_null()) report["mapping"] = result.mapping_mode;
  report["arch"] = result.arch;
  return report;
}

}  // namespace polyarch::reports
