#pragma once
// What limits a MIMD op: the resource busiest over the op, among one core's compute, the DRAM
// channel, the busiest NoC link and one core's outstanding line misses (`latency`: its bytes at
// the rate Little's law allows; each in cycles of the unit's clock). The mapping search
// gives it the busy times it predicts, the simulation the ones it measured (the busiest link
// from the NoC's own byte counts), so `compile --explain` and `run` speak one rule.
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::mimd {

// Ties go to compute, then DRAM, then the NoC.
mapping::Bound mimd_bound(double compute_cycles, double dram_cycles, double noc_link_cycles,
                          double miss_window_cycles);

}  // namespace polyarch::archs::mimd
