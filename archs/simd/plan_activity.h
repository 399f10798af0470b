#pragma once
// A simd plan's activity in an op result, so that energy follows from the result alone
// (energy.h): what the SystemC model records, and what mapping search prices a tiling with.
#include "archs/simd/kernel_plan.h"
#include "sim/result.h"

namespace polyarch::archs::simd {

// Compute counts in mapping.activity; the memories in `sram`, in bytes.
void record_plan_activity(const KernelPlan& plan, sim::OpResult& result);

}  // namespace polyarch::archs::simd
