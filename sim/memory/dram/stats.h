#pragma once
// Counters of a DRAM timing simulation; all int64 (cycles are DRAM command-clock cycles).
#include <array>
#include <cstdint>

#include "sim/memory/dram/command.h"

namespace polyarch::sim::dram {

struct DramStats {
  int64_t read_bursts = 0;
  int64_t write_bursts = 0;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
  // Per burst, by the state of its bank when the controller turned to it: the row was open
  // (hit), the bank was closed (miss), or another row had to be closed first (conflict).
  int64_t row_hits = 0;
  int64_t row_misses = 0;
  int64_t row_conflicts = 0;
  std::array<int64_t, kCommandKindCount> commands{};  // indexed by CommandKind
  int64_t refreshes = 0;
  int64_t total_burst_latency_cycles = 0;  // sum over bursts of completion - arrival
  int64_t first_arrival_cycle = -1;        // -1 until a burst was served
  int64_t last_completion_cycle = 0;

  int64_t command_count(CommandKind kind) const { return commands[static_cast<int>(kind)]; }
  int64_t bursts() const { return read_bursts + write_bursts; }
  double row_hit_rate() const;

  DramStats& operator+=(const DramStats& other);
  // The counts added since `earlier` (a reading of the same counters); the cycle marks are
  // this reading's.
  DramStats since(const DramStats& earlier) const;
  // *this += later.since(earlier), without the copies.
  void add_since(const DramStats& later, const DramStats& earlier);
};

// The counters a request's service reports (DramSystem::served()): its bursts by row state and
// its bytes, a few of DramStats' fields, since a reading of them is taken per controller per
// request.
struct ServedCounts {
  int64_t bursts = 0;
  int64_t bytes = 0;
  int64_t row_hits = 0;
  int64_t row_misses = 0;
  int64_t row_conflicts = 0;

  static ServedCounts of(const DramStats& stats) {
    return {.bursts = stats.bursts(),
            .bytes = stats.bytes_read + stats.bytes_written,
            .row_hits = stats.row_hits,
            .row_misses = stats.row_misses,
            .row_conflicts = stats.row_conflicts};
  }
  // *this += of(later) - earlier.
  void add_since(const DramStats& later, const ServedCounts& earlier) {
    const ServedCounts now = of(later);
    bursts += now.bursts - earlier.bursts;
    bytes += now.bytes - earlier.bytes;
    row_hits += now.row_hits - earlier.row_hits;
    row_misses += now.row_misses - earlier.row_misses;
    row_conflicts += now.row_conflicts - earlier.row_conflicts;
  }
};

}  // namespace polyarch::sim::dram
