#include "archs/simd/cost_model.h"

#include "archs/simd/attention_space.h"
#include "archs/simd/conv_k_steps.h"
#include "archs/simd/gemm_mapper.h"
#include "archs/simd/gemm_space.h"
#include "archs/simd/streaming_mapper.h"
#include "base/checked_math.h"
#include "compiler/ir/stored_operands.h"
#include "compiler/ir/weight_sparsity.h"

namespace polyarch::archs::simd {

namespace {

int64_t bytes_of(int64_t elements, int64_t elem) { return checked_mul(elements, elem, "bytes"); }

GemmProblem dense_gemm_problem(const ir::Op& op, ir::DType dtype) {
  const int64_t elem = ir::dtype_bytes(dtype);
  GemmProblem problem;
  problem.dtype = dtype;
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    problem.m = gemm->m;
    problem.n = gemm->n;
    problem.k = gemm->k;
    problem.batch = gemm->batch;
    const int64_t b_copies = gemm->b_shared ? 1 : gemm->batch;
    problem.a_bytes = bytes_of(checked_mul(gemm->batch, gemm->m * gemm->k, "elements"), elem);
    problem.b_bytes = bytes_of(checked_mul(b_copies, gemm->k * gemm->n, "elements"), elem);
    problem.c_bytes = bytes_of(checked_mul(gemm->batch, gemm->m * gemm->n, "elements"), elem);
    return problem;
  }
  // A convolution as its implicit GEMM: the input is read once from DRAM, im2col rows are formed
  // on chip from it, K stepped as the library's kernel for its channel row steps it.
  const ir::GemmView view = ir::gemm_view(op);
  problem.m = view.m;
  problem.n = view.n;
  problem.k = view.k;
  problem.batch = view.repeats;
  problem.a_bytes = bytes_of(checked_mul(view.repeats, view.ifmap_distinct_elements, "elements"),
                             elem);
  problem.b_bytes = bytes_of(checked_mul(view.repeats, view.k * view.n, "elements"), elem);
  problem.c_bytes = bytes_of(checked_mul(view.repeats, view.m * view.n, "elements"), elem);
  const ConvKSteps steps = conv_k_steps(op, elem);
  problem.k_taps = steps.taps;
  problem.lane_k_taps = steps.lane_taps;
  problem.sync_engine = steps.sync_engine;
  return problem;
}

// What quantised and pruned weights change (ir/stored_operands.h): they are read as stored,
// quantised ones are widened on the lanes, and an engine with an N:M pattern that pruned ones
// fit skips their zeros.
void apply_weight_storage(const SimdParams& params, const ir::Op& op, GemmProblem& problem) {
  const int64_t weights = ir::weight_elements(op);
  if (weights > 0 && (op.weight_sparsity || op.weight_format)) {
    const int64_t dense = problem.b_bytes;
    problem.b_bytes = ir::weight_storage_bytes(op, problem.dtype);
    problem.b_stored_fraction =
        dense > 0 ? static_cast<double>(problem.b_bytes) / static_cast<double>(dense) : 1.0;
    if (op.weight_format) {
      problem.widen_ops_per_pair = ir::widen_ops_per_pair(op.weight_format->dtype, problem.dtype);
    }
  }
  if (!op.weight_sparsity) return;
  const ir::WeightSparsity& sparsity = *op.weight_sparsity;
  const MatrixEngineParams& engine = params.matrix_engine;
  if (engine.sparse_n > 0 && sparsity.structured() && sparsity.m == engine.sparse_m &&
      sparsity.n <= engine.sparse_n) {
    problem.engine_speedup = engine.sparse_m / engine.sparse_n;
  }
}

// An op of a narrow type the cores run in a wider one (SimdParams::run_dtype): its operands are
// read from DRAM as stored and its results written so; the lanes convert them, in the
// conversion pass the kind adapter times (archs/conversion_pass.h).
void apply_operand_storage(const ir::Op& op, GemmProblem& problem) {
  if (!op.dtype || *op.dtype == problem.dtype || !ir::is_narrow(*op.dtype)) return;
  const int64_t elem = ir::dtype_bytes(problem.dtype);
  auto stored = [&](int64_t wide_bytes) { return ir::storage_bytes(wide_bytes / elem, *op.dtype); };
  problem.a_bytes = stored(problem.a_bytes);
  problem.c_bytes = stored(problem.c_bytes);
  // Weights in a weight format or pruned are already read as stored (apply_weight_storage).
  if (op.weight_format || op.weight_sparsity) return;
  const int64_t dense_b = problem.b_bytes;
  problem.b_bytes = stored(problem.b_bytes);
  problem.b_stored_fraction =
      dense_b > 0 ? static_cast<double>(problem.b_bytes) / static_cast<double>(dense_b) : 1.0;
}

}  // namespace

GemmProblem simd_gemm_problem(const SimdParams& params, const ir::Op& op, ir::DType dtype) {
  GemmProblem problem = dense_gemm_problem(op, dtype);
  apply_weight_storage(params, op, problem);
  apply_operand_storage(op, problem);
  return problem;
}

bool simd_supports(const ir::Op& op) { return op.kind() != ir::OpKind::kFrontend; }

KernelPlan plan_op(const SimdParams& params, const ir::Op& op, const MemoryView& memory,
                   double clock_ghz, UnitSearch* search) {
  const ir::DType dtype = params.run_dtype(op);
  const int64_t launch_cycles = params.launch_cycles(clock_ghz);
  KernelPlan plan;
  switch (op.kind()) {
    case ir::OpKind::kGemm:
    case ir::OpKind::kConv2d:
      plan = plan_gemm_for_run(params, op, memory, clock_ghz, search);
      plan.launch_cycles = launch_cycles;
      break;
    case ir::OpKind::kAttention:
      plan = plan_attention_for_run(params, op, memory, clock_ghz, search);
      break;
    case ir::OpKind::kFrontend:
      throw_bad_input(op.where, "op '" + op.name + "' (" + ir::op_type_name(op) +
                                    ") was not lowered to a canonical op");
    default:
      plan = plan_streaming(params, streaming_work(params, op, dtype));
      // A view moves nothing and launches nothing.
      plan.launch_cycles = plan.blocks.empty() ? 0 : launch_cycles;
      break;
  }
  plan.compute_cycles = checked_add(plan.compute_cycles, plan.launch_cycles, "cycles");
  plan.mapping["dtype"] = std::string(ir::dtype_name(dtype));
  return plan;
}

}  // namespace polyarch::archs::simd
