#pragma once
// What limits a systolic op: one rule for the mapper's estimate and the simulated run, so
// `compile --explain` and `run` give the same word. Compute when the array's compute time is at
// least the DRAM channel's occupancy; otherwise "buffer" when the traffic is well above every
// operand moving once (reuse lost to buffer capacity), else "dram".
#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::systolic {

// The DRAM bytes of every operand of `view` moving once: input (its distinct elements), filter
// and output, times the view's repeats.
double compulsory_dram_bytes(const ir::GemmView& view, ir::DType element_dtype);

// `compute_s` and `dram_s` in any one unit of time (seconds or cycles alike).
mapping::Bound systolic_bound(double compute_s, double dram_s, double dram_bytes,
                              double compulsory_bytes);

}  // namespace polyarch::archs::systolic
