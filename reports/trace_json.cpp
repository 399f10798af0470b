#include "reports/trace_json.h"

#include <algorithm>
#include <map>

namespace polyarch::reports {

namespace {

constexpr int kProcessId = 1;

// Trace-event timestamps are microseconds (doubles); cycles convert with the unit's clock.
double cycles_to_us(int64_t cycles, double clock_ghz) {
  return static_cast<double>(cycles) / (clock_ghz * 1e3);
}

nlohmann::ordered_json metadata(const char* what, int thread_id, const std::string& name) {
  return {{"name", what},
          {"ph", "M"},
          {"pid", kProcessId},
          {"tid", thread_id},
          {"args", {{"name", name}}}};
}

nlohmann::ordered_json op_event(const sim::OpResult& op, int thread_id) {
  return {{"name", op.name},
          {"cat", op.kind},
          {"ph", "X"},
          {"pid", kProcessId},
          {"tid", thread_id},
          {"ts", cycles_to_us(op.start_cycle, op.unit_clock_ghz)},
          {"dur", cycles_to_us(op.total_cycles, op.unit_clock_ghz)},
          {"args",
           {{"compute_cycles", op.compute_cycles},
            {"stall_cycles", op.stall_cycles},
            {"macs", op.macs},
            {"compute_utilization", op.utilization},
            {"dram_bytes_read", op.dram_bytes_read},
            {"dram_bytes_written", op.dram_bytes_written}}}};
}

// The op's average DRAM bandwidth while it runs, then back to zero when it ends.
void add_bandwidth_counter(const sim::OpResult& op, nlohmann::ordered_json& events) {
  double seconds = op.latency_s();
  double bytes = static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);
  double gbps = seconds > 0 ? bytes / seconds / 1e9 : 0.0;
  std::string name = "DRAM GB/s (" + op.unit + ")";
  events.push_back({{"name", name},
                    {"ph", "C"},
                    {"pid", kProcessId},
                    {"ts", cycles_to_us(op.start_cycle, op.unit_clock_ghz)},
                    {"args", {{"GB/s", gbps}}}});
  events.push_back({{"name", name},
                    {"ph", "C"},
                    {"pid", kProcessId},
                    {"ts", cycles_to_us(op.end_cycle, op.unit_clock_ghz)},
                    {"args", {{"GB/s", 0.0}}}});
}

// One counter track per block: `label (block)` with the value of each window at its start.
void add_window_counters(const std::vector<std::string>& blocks,
                         const std::vector<std::vector<double>>& values, double window_s,
                         const std::string& label, const std::string& unit_key,
                         nlohmann::ordered_json& events) {
  for (std::size_t block = 0; block < blocks.size(); ++block) {
    const std::string name = label + " (" + blocks[block] + ")";
    for (std::size_t window = 0; window < values[block].size(); ++window) {
      events.push_back({{"name", name},
                        {"ph", "C"},
                        {"pid", kProcessId},
                        {"ts", static_cast<double>(window) * window_s * 1e6},
                        {"args", {{unit_key, values[block][window]}}}});
    }
  }
}

// One counter track of bytes per window, as GB/s.
void add_bytes_counter(const std::string& name, const std::vector<int64_t>& bytes, double window_s,
                       nlohmann::ordered_json& events) {
  for (std::size_t window = 0; window < bytes.size(); ++window) {
    events.push_back({{"name", name},
                      {"ph", "C"},
                      {"pid", kProcessId},
                      {"ts", static_cast<double>(window) * window_s * 1e6},
                      {"args", {{"GB/s", static_cast<double>(bytes[window]) / window_s / 1e9}}}});
  }
}

// jedec: one counter track per DRAM channel, its data bus's bandwidth in each window of the
// run, and where PIM units work in its banks a second one of the bytes their column commands
// moved between banks and PUs, which never cross the bus.
void add_channel_counters(const sim::MemoryResult& memory, nlohmann::ordered_json& events) {
  for (const sim::ChannelBandwidth& channel : memory.channel_bandwidth) {
    const std::string number = std::to_string(channel.channel);
    add_bytes_counter("DRAM channel " + number + " GB/s", channel.bytes, channel.window_s, events);
    if (std::any_of(channel.pim_internal_bytes.begin(), channel.pim_internal_bytes.end(),
                    [](int64_t bytes) { return bytes > 0; })) {
      add_bytes_counter("PIM channel " + number + " internal GB/s", channel.pim_internal_bytes,
                        channel.window_s, events);
    }
  }
}

}  // namespace

nlohmann::ordered_json trace_json(const sim::RunResult& result) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  events.push_back(metadata(
      "process_name", 0,
      result.provenance.arch_name.empty() ? std::string("polyarch") : result.provenance.arch_name));
  std::map<std::string, int> thread_of_unit;
  for (const sim::UnitResult& unit : result.units) {
    int thread_id = static_cast<int>(thread_of_unit.size()) + 1;
    thread_of_unit[unit.name] = thread_id;
    events.push_back(metadata("thread_name", thread_id, unit.name + " (" + unit.kind + ")"));
  }
  for (const sim::OpResult& op : result.ops) {
    auto unit = thread_of_unit.find(op.unit);
    int thread_id = unit == thread_of_unit.end() ? 0 : unit->second;
    events.push_back(op_event(op, thread_id));
    add_bandwidth_counter(op, events);
  }
  if (result.memory) add_channel_counters(*result.memory, events);
  if (result.power) {
    add_window_counters(result.power->blocks, result.power->watts, result.power->window_s,
                        "power W", "W", events);
    if (result.thermal) {
      add_window_counters(result.thermal->blocks, result.thermal->celsius, result.power->window_s,
                          "temperature C", "C", events);
    }
  }
  return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

}  // namespace polyarch::reports
