#pragma once
// A simd plan's activity in an op result, so that energy follows from the result alone
// (energy.h): what the SystemC model records, and what mapping search prices a tiling with.
#include "archs/simd/activity.h"
#include "archs/simd/kernel_plan.h"
#include "sim/result.h"

namespace polyarch::archs::simd {

// The plan's compute counts.
SimdActivity simd_activity(const KernelPlan& plan);
// Compute counts in mapping.activity (activity.h); the memories in `sram`, in bytes.
void record_plan_activity(const KernelPlan& plan, sim::OpResult& result);

}  // namespace polyarch::archs::simd
