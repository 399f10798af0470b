#pragma once
// GEMM (and convolution as implicit GEMM) on a simd unit: thread-block tiles BM x BN stepping
// through K in BK slices, `split` ways of split-K, run in waves of one tile per core, on the
// matrix engine or on the vector lanes. The mapper searches tile shapes, split-K and engine and
// keeps the plan with the fewest estimated cycles. Equations: README.md "GEMM".
#include <cstdint>

#include "archs/simd/kernel_plan.h"
#include "archs/simd/memory_view.h"
#include "archs/simd/params.h"
#include "compiler/ir/dtype.h"

namespace polyarch::archs::simd {

struct GemmProblem {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t batch = 1;  // independent GEMMs (batched matmul, conv groups)
  ir::DType dtype = ir::DType::kFp16;
  // DRAM footprint of the operands (each distinct element once: a convolution's input is
  // smaller than its im2col matrix; a shared weight is stored once for the whole batch).
  int64_t a_bytes = 0;
  int64_t b_bytes = 0;
  int64_t c_bytes = 0;
  // The matrix engine's rate multiplier: sparse_m / sparse_n when the weights fit the engine's
  // N:M sparsity pattern (params.h), 1 otherwise.
  int64_t engine_speedup = 1;
  // B as stored over B in `dtype` (below 1 for quantised or pruned weights): the fraction of
  // its panels' bytes that DRAM, L2 and the scratchpad move.
  double b_stored_fraction = 1.0;
  // Lane instructions that widen a pair of stored weights to `dtype` before the engine
  // multiplies them (ir::widen_ops_per_pair; 0 for weights stored in `dtype`).
  int64_t widen_ops_per_pair = 0;
  // A convolution stepped one filter tap at a time (conv_k_steps.h): K = k_taps x channels,
  // each K slice one tap's channels, zero-filled from the channel count up to BK. 1: K is one
  // contiguous run, sliced as a GEMM's. On the matrix engine, and on the lanes.
  int64_t k_taps = 1;
  int64_t lane_k_taps = 1;
  // The engine runs its synchronous MMA (matrix_engine.sync_macs_per_cycle), whose multistage
  // mainloop needs K slices of kSyncMmaKStepsPerSlice x kSyncMmaKBytes at least.
  bool sync_engine = false;
};

struct GemmTiling {
  int64_t bm = 0;
  int64_t bn = 0;
  int64_t bk = 0;
  int64_t split_k = 1;
  bool matrix_engine = true;
};

// The plan for one tiling; an infeasible tiling (accumulators beyond the register budget, fewer
// than two staging buffers in the scratchpad, a K slice narrower than the engine's path takes,
// a split-K split left without a K slice) gives nullopt. Without `describe` the mapping JSON is
// left empty (the search evaluates thousands of tilings).
std::optional<KernelPlan> plan_gemm_tiling(const SimdParams& params, const GemmProblem& problem,
                                           const GemmTiling& tiling, bool describe = true);

// The best plan over the tiling space.
KernelPlan plan_gemm(const SimdParams& params, const GemmProblem& problem,
                     const MemoryView& memory);

}  // namespace polyarch::archs::simd
