#include "sweep/result_wire.h"

#include <nlohmann/json.hpp>

#include "base/error.h"

namespace polyarch::sweep {

namespace {

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::optional<double> optional_double(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  return value.get<double>();
}

}  // namespace

std::string encode_run_result(const sim::RunResult& result) {
  const sim::Summary& summary = result.summary;
  nlohmann::json json;
  json["summary"] = {{"total_cycles", summary.total_cycles},
                     {"clock_ghz", summary.clock_ghz},
                     {"latency_s", summary.latency_s},
                     {"energy_j", optional_json(summary.energy_j)},
                     {"avg_power_w", optional_json(summary.avg_power_w)},
                     {"board_power_w", optional_json(summary.board_power_w)},
                     {"dram_bytes_read", summary.dram_bytes_read},
                     {"dram_bytes_written", summary.dram_bytes_written},
                     {"peak_temp_c", optional_json(summary.peak_temp_c)},
                     {"energy_by_action", summary.energy_by_action}};
  json["ops"] = nlohmann::json::array();
  for (const sim::OpResult& op : result.ops) {
    json["ops"].push_back({{"name", op.name},
                           {"kind", op.kind},
                           {"unit", op.unit},
                           {"unit_clock_ghz", op.unit_clock_ghz},
                           {"total_cycles", op.total_cycles},
                           {"compute_cycles", op.compute_cycles},
                           {"stall_cycles", op.stall_cycles},
                           {"macs", op.macs},
                           {"utilization", op.utilization},
                           {"dram_bytes_read", op.dram_bytes_read},
                           {"dram_bytes_written", op.dram_bytes_written},
                           {"energy_j", optional_json(op.energy_j)}});
  }
  return json.dump();
}

sim::RunResult decode_run_result(const std::string& text) {
  sim::RunResult result;
  try {
    nlohmann::json json = nlohmann::json::parse(text);
    const nlohmann::json& summary = json.at("summary");
    result.summary.total_cycles = summary.at("total_cycles").get<int64_t>();
    result.summary.clock_ghz = summary.at("clock_ghz").get<double>();
    result.summary.latency_s = summary.at("latency_s").get<double>();
    result.summary.energy_j = optional_double(summary.at("energy_j"));
    result.summary.avg_power_w = optional_double(summary.at("avg_power_w"));
    result.summary.board_power_w = optional_double(summary.at("board_power_w"));
    result.summary.dram_bytes_read = summary.at("dram_bytes_read").get<int64_t>();
    result.summary.dram_bytes_written = summary.at("dram_bytes_written").get<int64_t>();
    result.summary.peak_temp_c = optional_double(summary.at("peak_temp_c"));
    result.summary.energy_by_action =
        summary.at("energy_by_action").get<std::map<std::string, double>>();
    for (const nlohmann::json& op_json : json.at("ops")) {
      sim::OpResult op;
      op.name = op_json.at("name").get<std::string>();
      op.kind = op_json.at("kind").get<std::string>();
      op.unit = op_json.at("unit").get<std::string>();
      op.unit_clock_ghz = op_json.at("unit_clock_ghz").get<double>();
      op.total_cycles = op_json.at("total_cycles").get<int64_t>();
      op.compute_cycles = op_json.at("compute_cycles").get<int64_t>();
      op.stall_cycles = op_json.at("stall_cycles").get<int64_t>();
      op.macs = op_json.at("macs").get<int64_t>();
      op.utilization = op_json.at("utilization").get<double>();
      op.dram_bytes_read = op_json.at("dram_bytes_read").get<int64_t>();
      op.dram_bytes_written = op_json.at("dram_bytes_written").get<int64_t>();
      op.energy_j = optional_double(op_json.at("energy_j"));
      result.ops.push_back(std::move(op));
    }
  } catch (const nlohmann::json::exception& error) {
    throw_runtime({}, std::string("malformed result from a sweep worker: ") + error.what());
  }
  return result;
}

}  // namespace polyarch::sweep
