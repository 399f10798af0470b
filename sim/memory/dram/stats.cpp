#include "sim/memory/dram/stats.h"

#include <algorithm>

namespace polyarch::sim::dram {

double DramStats::row_hit_rate() const {
  const int64_t accesses = row_hits + row_misses + row_conflicts;
  return accesses == 0 ? 0.0 : static_cast<double>(row_hits) / static_cast<double>(accesses);
}

DramStats& DramStats::operator+=(const DramStats& other) {
  add_since(other, DramStats{});
  return *this;
}

DramStats DramStats::since(const DramStats& earlier) const {
  DramStats delta;
  delta.add_since(*this, earlier);
  return delta;
}

void DramStats::add_since(const DramStats& later, const DramStats& earlier) {
  read_bursts += later.read_bursts - earlier.read_bursts;
  write_bursts += later.write_bursts - earlier.write_bursts;
  bytes_read += later.bytes_read - earlier.bytes_read;
  bytes_written += later.bytes_written - earlier.bytes_written;
  row_hits += later.row_hits - earlier.row_hits;
  row_misses += later.row_misses - earlier.row_misses;
  row_conflicts += later.row_conflicts - earlier.row_conflicts;
  for (size_t k = 0; k < commands.size(); ++k) {
    commands[k] += later.commands[k] - earlier.commands[k];
  }
  refreshes += later.refreshes - earlier.refreshes;
  total_burst_latency_cycles +=
      later.total_burst_latency_cycles - earlier.total_burst_latency_cycles;
  if (later.first_arrival_cycle >= 0) {
    first_arrival_cycle = first_arrival_cycle < 0
                              ? later.first_arrival_cycle
                              : std::min(first_arrival_cycle, later.first_arrival_cycle);
  }
  last_completion_cycle = std::max(last_completion_cycle, later.last_completion_cycle);
}

}  // namespace polyarch::sim::dram
