#include "archs/mimd/op_bound.h"

#include <algorithm>

namespace polyarch::archs::mimd {

mapping::Bound mimd_bound(double compute_cycles, double dram_cycles, double noc_link_cycles,
                          double miss_window_cycles) {
  const double memory_side = std::max({dram_cycles, noc_link_cycles, miss_window_cycles});
  if (compute_cycles >= memory_side) return mapping::Bound::kCompute;
  if (dram_cycles >= memory_side) return mapping::Bound::kDram;
  return noc_link_cycles >= memory_side ? mapping::Bound::kNoc : mapping::Bound::kLatency;
}

}  // namespace polyarch::archs::mimd
