#include "sim/memory/dram/stats.h"

#include <algorithm>

namespace polyarch::sim::dram {

double DramStats::row_hit_rate() const {
  const int64_t accesses = row_hits + row_misses + row_conflicts;
  return accesses == 0 ? 0.0 : static_cast<double>(row_hits) / static_cast<double>(accesses);
}

DramStats& DramStats::operator+=(const DramStats& other) {
  read_bursts += other.read_bursts;
  write_bursts += other.write_bursts;
  bytes_read += other.bytes_read;
  bytes_written += other.bytes_written;
  row_hits += other.row_hits;
  row_misses += other.row_misses;
  row_conflicts += other.row_conflicts;
  for (size_t k = 0; k < commands.size(); ++k) commands[k] += other.commands[k];
  refreshes += other.refreshes;
  total_burst_latency_cycles += other.total_burst_latency_cycles;
  if (other.first_arrival_cycle >= 0) {
    first_arrival_cycle = first_arrival_cycle < 0
                              ? other.first_arrival_cycle
                              : std::min(first_arrival_cycle, other.first_arrival_cycle);
  }
  last_completion_cycle = std::max(last_completion_cycle, other.last_completion_cycle);
  return *this;
}

DramStats DramStats::since(const DramStats& earlier) const {
  DramStats delta = *this;
  delta.read_bursts -= earlier.read_bursts;
  delta.write_bursts -= earlier.write_bursts;
  delta.bytes_read -= earlier.bytes_read;
  delta.bytes_written -= earlier.bytes_written;
  delta.row_hits -= earlier.row_hits;
  delta.row_misses -= earlier.row_misses;
  delta.row_conflicts -= earlier.row_conflicts;
  for (size_t k = 0; k < commands.size(); ++k) delta.commands[k] -= earlier.commands[k];
  delta.refreshes -= earlier.refreshes;
  delta.total_burst_latency_cycles -= earlier.total_burst_latency_cycles;
  return delta;
}

}  // namespace polyarch::sim::dram
