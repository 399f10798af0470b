#include "archs/unit_search.h"

#include <cmath>
#include <cstdio>

namespace polyarch::archs {

sim::OpResult planned_op_result(int64_t macs, int64_t dram_bytes_read, int64_t dram_bytes_written,
                                double latency_s) {
  sim::OpResult op;
  op.macs = macs;
  op.dram_bytes_read = dram_bytes_read;
  op.dram_bytes_written = dram_bytes_written;
  // Leakage is priced over latency_s(): total_cycles of a 1 GHz clock, rounded up.
  op.unit_clock_ghz = 1.0;
  op.total_cycles = static_cast<int64_t>(std::ceil(latency_s * 1e9));
  return op;
}

std::string channel_key(double clock_ghz, const sim::MemoryView& memory) {
  char text[96];
  std::snprintf(text, sizeof text, " clock=%g bw=%g lat=%lld", clock_ghz,
                memory.dram_bytes_per_cycle, static_cast<long long>(memory.dram_latency_cycles));
  return text;
}

}  // namespace polyarch::archs
