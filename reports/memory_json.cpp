#include "reports/memory_json.h"

namespace polyarch::reports {
namespace {

// A unit's or an op's DRAM traffic; its achieved bandwidth is over the time it was busy.
nlohmann::ordered_json traffic_json(const sim::NamedDramTraffic& named, bool is_op) {
  const sim::DramTraffic& traffic = named.traffic;
  const int64_t bytes = traffic.bytes_read + traffic.bytes_written;
  nlohmann::ordered_json json = {{"name", named.name}};
  if (is_op) json["unit"] = named.unit;
  json["bytes_read"] = traffic.bytes_read;
  json["bytes_written"] = traffic.bytes_written;
  json["busy_s"] = named.busy_s;
  json["achieved_bandwidth_gbps"] =
      named.busy_s > 0 ? static_cast<double>(bytes) / named.busy_s / 1e9 : 0.0;
  json["requests"] = traffic.requests;
  json["bursts"] = traffic.bursts;
  json["row_hits"] = traffic.row_hits;
  json["row_misses"] = traffic.row_misses;
  json["row_conflicts"] = traffic.row_conflicts;
  json["interference_s"] = traffic.interference_s;
  if (traffic.pim_blocks > 0) {
    json["pim_blocks"] = traffic.pim_blocks;
    json["pim_column_commands"] = traffic.pim_column_commands;
    json["pim_internal_bytes"] = traffic.pim_internal_bytes;
    json["pim_mode_entries"] = traffic.pim_mode_entries;
  }
  return json;
}

}  // namespace

nlohmann::ordered_json memory_json(const sim::MemoryResult& memory) {
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const sim::TensorAddress& tensor : memory.tensors) {
    tensors.push_back({{"name", tensor.name},
                       {"role", tensor.role},
                       {"base_address", tensor.base_address},
                       {"bytes", tensor.bytes}});
  }
  nlohmann::ordered_json json = {{"model", memory.model},
                                 {"capacity_bytes", memory.capacity_bytes},
                                 {"footprint_bytes", memory.footprint_bytes},
                                 {"tensors", tensors}};
  if (memory.jedec) {
    const sim::JedecMemoryCounters& counters = *memory.jedec;
    json["jedec"] = {
        {"read_bursts", counters.read_bursts},     {"write_bursts", counters.write_bursts},
        {"row_hits", counters.row_hits},           {"row_misses", counters.row_misses},
        {"row_conflicts", counters.row_conflicts}, {"activates", counters.activates},
        {"refreshes", counters.refreshes},         {"commands_checked", counters.commands_checked}};
    if (counters.pim_column_commands > 0) {
      json["jedec"]["pim_column_commands"] = counters.pim_column_commands;
      json["jedec"]["pim_internal_bytes"] = counters.pim_internal_bytes;
      json["jedec"]["pim_mode_entries"] = counters.pim_mode_entries;
      json["jedec"]["pim_mode_exits"] = counters.pim_mode_exits;
    }
    nlohmann::ordered_json units = nlohmann::ordered_json::array();
    for (const sim::NamedDramTraffic& unit : memory.unit_traffic) {
      units.push_back(traffic_json(unit, false));
    }
    nlohmann::ordered_json ops = nlohmann::ordered_json::array();
    for (const sim::NamedDramTraffic& op : memory.op_traffic) ops.push_back(traffic_json(op, true));
    nlohmann::ordered_json channels = nlohmann::ordered_json::array();
    for (const sim::ChannelBandwidth& channel : memory.channel_bandwidth) {
      int64_t bytes = 0;
      for (int64_t window : channel.bytes) bytes += window;
      nlohmann::ordered_json entry = {{"channel", channel.channel},
                                      {"bytes", bytes},
                                      {"window_s", channel.window_s},
                                      {"windows", channel.bytes.size()}};
      int64_t internal_bytes = 0;
      for (int64_t window : channel.pim_internal_bytes) internal_bytes += window;
      if (internal_bytes > 0) entry["pim_internal_bytes"] = internal_bytes;
      channels.push_back(entry);
    }
    json["jedec"]["units"] = units;
    json["jedec"]["ops"] = ops;
    json["jedec"]["channels"] = channels;
  }
  if (!memory.notes.empty()) json["notes"] = memory.notes;
  return json;
}

}  // namespace polyarch::reports
