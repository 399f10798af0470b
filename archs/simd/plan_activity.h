#pragma once
// A simd plan's activity in an op result, so that energy follows from the result alone
// (energy.h): what the SystemC model records, and what mapping search prices a tiling with.
#include "archs/simd/activity.h"
#include "archs/simd/kernel_plan.h"
#include "archs/simd/params.h"
#include "sim/result.h"

namespace polyarch::archs::simd {

// Thread instructions (lanes of warp instructions) the plan issues, by what the plan counts:
//   lane:   vector ops / elements one 32-bit lane computes per instruction (2 for packed 16-bit
//           types, 4 for 8-bit; 1 otherwise)
//   SFU:    one per special-function result
//   matrix: engine MACs / the MACs one thread's share of an MMA instruction covers: 4 outputs x
//           32 bytes of K for mma.sync m16n8k16 (64 bf16 MACs), 128 outputs x 32 bytes of K for
//           wgmma m64n256k16 over a 128-thread warpgroup (2048 bf16 MACs). A plan runs mma.sync
//           where its compute ceiling is the engine's synchronous rate, or where the engine has
//           no faster (asynchronous) path; otherwise wgmma at its widest N (a lower bound).
//   memory: bytes between L2 and the cores / 16 (one 128-bit load or store per thread).
int64_t plan_thread_instructions(const KernelPlan& plan, const SimdParams& params);

// The plan's compute counts and thread instructions.
SimdActivity simd_activity(const KernelPlan& plan, const SimdParams& params);
// Compute counts in mapping.activity (activity.h); the memories in `sram`, in bytes.
// Returns the activity it recorded (simd_activity's), for a caller that prices it next.
SimdActivity record_plan_activity(const KernelPlan& plan, const SimdParams& params,
                                  sim::OpResult& result);

}  // namespace polyarch::archs::simd
