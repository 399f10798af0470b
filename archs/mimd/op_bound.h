#pragma once
// What limits a MIMD op: the resource busiest over the op, among one core's compute, the DRAM
// channel and the busiest NoC link (each in cycles of the unit's clock). The mapping search
// gives it the busy times it predicts, the simulation the ones it measured (the busiest link
// from the NoC's own byte counts), so `compile --explain` and `run` speak one rule.
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::mimd {

// Ties go to compute, then DRAM.
mapping::Bound mimd_bound(double compute_cycles, double dram_cycles, double noc_link_cycles);

}  // namespace polyarch::archs::mimd
