#include "driver/dram_replay.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "base/config_tree.h"
#include "base/error.h"
#include "sim/memory/dram/dram_yaml.h"
#include "sim/memory/dram/dramsim3_ini.h"
#include "sim/memory/dram/trace.h"

namespace polyarch::driver {
namespace {

const ConfigNode& dram_map_of(const ConfigNode& root, const std::filesystem::path& path) {
  if (root.is_map()) {
    if (const ConfigNode* dram = root.find("dram")) return *dram;
    if (const ConfigNode* memory = root.find("memory")) {
      if (memory->is_map()) {
        if (const ConfigNode* dram = memory->find("dram")) return *dram;
      }
    }
  }
  SourceLocation where = root.where();
  where.file = path.string();
  throw_bad_input(where,
                  "no DRAM described: expected a top-level `dram:` map or an arch file's "
                  "`memory: {dram: ...}`");
}

nlohmann::ordered_json result_json(const sim::dram::ReplayResult& r) {
  nlohmann::ordered_json json;
  json["requests"] = r.requests;
  json["reads"] = r.reads;
  json["writes"] = r.writes;
  json["cycles"] = r.cycles;
  json["bandwidth_gbps"] = r.bandwidth_gbps;
  json["peak_bandwidth_gbps"] = r.peak_bandwidth_gbps;
  json["mean_read_latency_cycles"] = r.mean_read_latency_cycles;
  json["p50_read_latency_cycles"] = r.p50_read_latency_cycles;
  json["p99_read_latency_cycles"] = r.p99_read_latency_cycles;
  json["mean_read_latency_ns"] = r.mean_read_latency_ns;
  json["row_hits"] = r.row_hits;
  json["row_misses"] = r.row_misses;
  json["row_conflicts"] = r.row_conflicts;
  json["refreshes"] = r.refreshes;
  return json;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string summary(const sim::dram::DramDescription& d, const sim::dram::ReplayResult& r) {
  const sim::dram::DramConfig& c = d.config;
  std::string text;
  text += "dram: " + d.standard + ", " + std::to_string(c.organization.channels) +
          " channel(s) x " + std::to_string(c.organization.pseudo_channels) +
          " pseudo-channel(s), " + std::to_string(c.banks_per_pseudo_channel()) + " banks, tCK " +
          fixed(c.clock_period_ns(), 4) + " ns, peak " + fixed(r.peak_bandwidth_gbps, 2) +
          " GB/s\n";
  text += "requests " + std::to_string(r.requests) + " (" + std::to_string(r.reads) + " reads, " +
          std::to_string(r.writes) + " writes) in " + std::to_string(r.cycles) + " cycles\n";
  text +=
      "bandwidth " + fixed(r.bandwidth_gbps, 3) + " GB/s (" +
      fixed(r.peak_bandwidth_gbps > 0 ? 100.0 * r.bandwidth_gbps / r.peak_bandwidth_gbps : 0, 1) +
      "% of peak)\n";
  text += "read latency: mean " + fixed(r.mean_read_latency_cycles, 2) + " cycles (" +
          fixed(r.mean_read_latency_ns, 2) + " ns), p50 " +
          std::to_string(r.p50_read_latency_cycles) + ", p99 " +
          std::to_string(r.p99_read_latency_cycles) + " cycles\n";
  text += "row hits " + std::to_string(r.row_hits) + ", misses " + std::to_string(r.row_misses) +
          ", conflicts " + std::to_string(r.row_conflicts) + ", refreshes " +
          std::to_string(r.refreshes) + "\n";
  return text;
}

}  // namespace

sim::dram::DramDescription load_dram_description(const std::filesystem::path& path) {
  if (path.extension() == ".ini") return sim::dram::read_dramsim3_ini_file(path);
  const ConfigNode root = load_config_file(path);
  return sim::dram::read_dram_map(dram_map_of(root, path));
}

DramReplayOutcome run_dram_replay(const DramReplayRequest& request) {
  if (request.format != "dramsim3") {
    throw_bad_input({}, "unknown trace format '" + request.format + "' (known: dramsim3)");
  }
  DramReplayOutcome outcome;
  outcome.description = load_dram_description(request.config);
  outcome.note =
      sim::dram::unmodelled_note(request.config.string(), outcome.description.unmodelled_keys);
  const sim::dram::Trace trace = sim::dram::read_dramsim3_trace_file(request.trace);
  outcome.result = sim::dram::replay_trace(outcome.description.config, trace);
  outcome.json = result_json(outcome.result).dump(2) + "\n";
  outcome.summary_text = summary(outcome.description, outcome.result);
  return outcome;
}

}  // namespace polyarch::driver
