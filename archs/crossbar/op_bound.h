#pragma once
// What limits a crossbar op: one rule for the estimate's predicted busy times and the
// simulation's measured ones, so `compile --explain` and `run` give the same word. The largest
// of the arrays' reads (compute), the busiest tile's ADC pool (adc), the DRAM channel's
// occupancy by the op's bytes (dram), the weight writes (reprogramming), the busiest activation
// buffer port (buffer) and the shared bus (noc); a resource must
// exceed the ones before it in that order by more than rounding to take the word.
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::crossbar {

struct CrossbarBusy {
  double read_ns = 0;
  double adc_ns = 0;
  double dram_ns = 0;
  double program_ns = 0;
  double buffer_ns = 0;  // the busiest buffer port (buffer)
  double bus_ns = 0;     // the shared bus (noc)
};

mapping::Bound crossbar_bound(const CrossbarBusy& busy);

}  // namespace polyarch::archs::crossbar
