#include "sim/memory/dram/replay.h"

#include <algorithm>
#include <vector>

#include "base/error.h"
#include "sim/memory/dram/dram_system.h"

namespace polyarch::sim::dram {
namespace {

void check_in_capacity(const DramConfig& config, const Trace& trace, const TraceRequest& request) {
  if (request.address < config.capacity_bytes()) return;
  SourceLocation where;
  where.file = trace.file;
  where.line = request.line;
  throw_bad_input(where, "address " + std::to_string(request.address) +
                             " is beyond the DRAM's capacity of " +
                             std::to_string(config.capacity_bytes()) + " bytes");
}

// The nearest-rank percentile of sorted values: the smallest value with at least `percent` of
// the values at or below it.
int64_t nearest_rank(const std::vector<int64_t>& sorted, int percent) {
  if (sorted.empty()) return 0;
  const size_t rank = (sorted.size() * static_cast<size_t>(percent) + 99) / 100;
  return sorted[std::max<size_t>(rank, 1) - 1];
}

}  // namespace

ReplayResult replay_trace(const DramConfig& config, const Trace& trace) {
  DramConfig quiet = config;
  quiet.controller.record_commands = false;
  DramSystem system(quiet);
  const int64_t burst_bytes = config.bytes_per_burst();

  std::vector<int64_t> entry_cycles;
  entry_cycles.reserve(trace.requests.size());
  int64_t earliest_entry = 0;  // one request enters per cycle
  for (const TraceRequest& request : trace.requests) {
    check_in_capacity(config, trace, request);
    const int64_t burst_address = request.address / burst_bytes * burst_bytes;
    int64_t cycle = std::max(earliest_entry, request.arrival_cycle);
    while (!system.accepts_burst_at(burst_address, request.is_write, cycle)) ++cycle;
    system.enqueue({.addr = burst_address,
                    .is_write = request.is_write,
                    .bytes = burst_bytes,
                    .arrival_cycle = cycle});
    entry_cycles.push_back(cycle);
    earliest_entry = cycle + 1;
  }
  system.run();

  ReplayResult result;
  result.requests = static_cast<int64_t>(trace.requests.size());
  result.peak_bandwidth_gbps = config.peak_bandwidth_gbps();
  std::vector<int64_t> read_latencies;
  for (size_t i = 0; i < trace.requests.size(); ++i) {
    const int64_t done = system.completion_cycle(static_cast<int64_t>(i));
    result.cycles = std::max(result.cycles, done);
    if (trace.requests[i].is_write) {
      ++result.writes;
    } else {
      ++result.reads;
      read_latencies.push_back(done - entry_cycles[i]);
    }
  }
  system.run_until(result.cycles);

  const DramStats stats = system.stats();
  result.row_hits = stats.row_hits;
  result.row_misses = stats.row_misses;
  result.row_conflicts = stats.row_conflicts;
  result.refreshes = stats.refreshes;
  if (result.cycles > 0) {
    const double seconds = static_cast<double>(result.cycles) * config.clock_period_ns() * 1e-9;
    result.bandwidth_gbps =
        static_cast<double>(stats.bytes_read + stats.bytes_written) / seconds / 1e9;
  }
  if (!read_latencies.empty()) {
    int64_t total = 0;
    for (int64_t latency : read_latencies) total += latency;
    result.mean_read_latency_cycles =
        static_cast<double>(total) / static_cast<double>(read_latencies.size());
    std::sort(read_latencies.begin(), read_latencies.end());
    result.p50_read_latency_cycles = nearest_rank(read_latencies, 50);
    result.p99_read_latency_cycles = nearest_rank(read_latencies, 99);
    result.mean_read_latency_ns = result.mean_read_latency_cycles * config.clock_period_ns();
  }
  return result;
}

}  // namespace polyarch::sim::dram
