#pragma once
// The analytical model of a simd unit: which kernel runs an op, with which tiling, and its
// steps (kernel_plan.h). The mappers search their spaces with estimate_cycles; the SystemC
// model (module.h) executes the chosen plan. Equations: README.md.
#include "archs/simd/gemm_mapper.h"
#include "archs/simd/kernel_plan.h"
#include "archs/simd/memory_view.h"
#include "archs/simd/params.h"
#include "archs/unit_search.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

// The kinds a simd unit runs: every canonical compute op.
bool simd_supports(const ir::Op& op);

// Plans `op` on the unit at `clock_ghz` (the unit's clock) with the memory behind it. With
// `search` (polyarch run --search) a GEMM's or convolution's tiling is the searched one
// (gemm_space.h); otherwise the GEMM mapper's own.
KernelPlan plan_op(const SimdParams& params, const ir::Op& op, const MemoryView& memory,
                   double clock_ghz, UnitSearch* search = nullptr);

// A GEMM or convolution as the GEMM mapper sees it (the convolution as its implicit GEMM, pruned
// weights read compressed), in element type `dtype`.
GemmProblem simd_gemm_problem(const SimdParams& params, const ir::Op& op, ir::DType dtype);

}  // namespace polyarch::archs::simd
