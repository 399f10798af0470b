#pragma once
// The DRAM as a unit sees it, independent of any clock: sustained bandwidth and first-access
// latency. The one type for it: analytical estimates, mapping spaces and the SoC's memory
// context all take a DramView; a unit working in its own clock asks view(clock_ghz) for the
// per-clock figures (MemoryView, memory_view.h). MemoryView stays a separate type rather than
// being replaced because its latency is rounded to whole cycles once, and the mappers that
// work in cycles must all see that same rounded figure. SystemC-free, so models may include it.
#include "sim/memory/memory_view.h"

namespace polyarch::sim {

struct DramView {
  double dram_bytes_per_second = 0;  // sustained; <= 0 = unlimited
  double dram_latency_s = 0;

  // The same in cycles of a unit's clock, as its mappers see it.
  MemoryView view(double clock_ghz) const {
    return memory_view(dram_bytes_per_second, dram_latency_s, clock_ghz);
  }
};

}  // namespace polyarch::sim
