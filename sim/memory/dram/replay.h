#pragma once
// Trace replay: a DRAMsim3-format trace (trace.h) driven through the DRAM system the way
// DRAMsim3's trace frontend drives its own. Requests enter their controller's queue in trace
// order, at most one per command-clock cycle and never before their arrival cycle; a request
// whose controller queue is full waits, and so do all after it. Each request is one burst.
#include <cstdint>

#include "sim/memory/dram/config.h"
#include "sim/memory/dram/trace.h"

namespace polyarch::sim::dram {

struct ReplayResult {
  int64_t requests = 0;
  int64_t reads = 0;
  int64_t writes = 0;
  int64_t cycles = 0;         // tCK from cycle 0 until the last data transfer ends
  double bandwidth_gbps = 0;  // bytes moved / (cycles x tCK), 10^9 B/s
  double peak_bandwidth_gbps = 0;
  // Read latency: from entering the controller queue to the end of the last data beat.
  double mean_read_latency_cycles = 0;
  int64_t p50_read_latency_cycles = 0;  // nearest-rank percentiles
  int64_t p99_read_latency_cycles = 0;
  double mean_read_latency_ns = 0;
  int64_t row_hits = 0;
  int64_t row_misses = 0;
  int64_t row_conflicts = 0;
  int64_t refreshes = 0;  // issued before `cycles`
};

// Throws polyarch::Error (bad input) at the trace's file:line for an address beyond the
// configuration's capacity.
ReplayResult replay_trace(const DramConfig& config, const Trace& trace);

}  // namespace polyarch::sim::dram
