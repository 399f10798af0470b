#include "archs/mimd/op_bound.h"

#include <algorithm>

namespace polyarch::archs::mimd {

mapping::Bound mimd_bound(double compute_cycles, double dram_cycles, double noc_link_cycles) {
  if (compute_cycles >= std::max(dram_cycles, noc_link_cycles)) return mapping::Bound::kCompute;
  return dram_cycles >= noc_link_cycles ? mapping::Bound::kDram : mapping::Bound::kNoc;
}

}  // namespace polyarch::archs::mimd
