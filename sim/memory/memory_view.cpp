#include "sim/memory/memory_view.h"

#include <cmath>

namespace polyarch::sim {

MemoryView memory_view(double bytes_per_second, double latency_s, double clock_ghz) {
  const double cycles_per_second = clock_ghz * 1e9;
  MemoryView view;
  view.dram_bytes_per_cycle = bytes_per_second > 0 ? bytes_per_second / cycles_per_second : 0.0;
  view.dram_latency_cycles = static_cast<int64_t>(std::llround(latency_s * cycles_per_second));
  return view;
}

}  // namespace polyarch::sim
