#include "archs/simd/streaming_mapper.h"

#include <algorithm>

#include "archs/simd/library_math.h"
#include "archs/simd/step_cost.h"
#include "base/checked_math.h"

namespace polyarch::archs::simd {

namespace {

// Bytes each active core streams per step: a few staging buffers' worth, small enough that the
// first step's exposed fetch is short, large enough that a step is many memory transactions.
constexpr int64_t kChunkBytesPerCore = 64 * 1024;
// Steps a streaming kernel is cut into at most (identical steps cost one simulated step each).
constexpr int64_t kMaxSteps = 4096;

int64_t times(int64_t a, int64_t b) { return checked_mul(a, b, "streaming work"); }

// A row kernel keeps a row on one core when it fits the scratchpad; otherwise it reads the row
// `passes` times (statistics first, then the normalisation).
int64_t row_reads(const SimdParams& params, int64_t cols, int64_t elem, int64_t passes) {
  return cols * elem <= params.scratchpad.kib * 1024 / 2 ? 1 : passes;
}

}  // namespace

StreamingWork streaming_work(const SimdParams& params, const ir::Op& op, ir::DType dtype) {
  const int64_t elem = ir::dtype_bytes(dtype);
  // Elementwise functions, norms and softmax compute in the library's opmath type and convert
  // (library_math.h); reductions, pooling and moves are counted in the stored type.
  const ir::DType opmath = opmath_dtype(dtype);
  StreamingWork work;
  work.dtype = dtype;
  work.flops = ir::flop_count(op);
  if (const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&op.attrs)) {
    const ElementCost cost = element_cost(*elementwise);
    work.kernel = "elementwise";
    work.dtype = opmath;
    // Each operand converted in, the result converted out, unless nothing is computed (a copy).
    const bool computes = cost.lane_ops + cost.sfu_ops > 0;
    work.vector_ops = times(
        elementwise->elements,
        cost.lane_ops + (computes ? conversion_ops(dtype) * (elementwise->inputs + 1) : 0));
    work.sfu_ops = times(elementwise->elements, cost.sfu_ops);
    work.dram_read_bytes = times(times(elementwise->elements, elementwise->inputs), elem);
    work.dram_write_bytes = times(elementwise->elements, elem);
    work.parallel_items = elementwise->elements;
  } else if (const auto* norm = std::get_if<ir::NormAttrs>(&op.attrs)) {
    const bool layer_norm = norm->kind == ir::NormKind::kLayerNorm;
    const int64_t elements = times(norm->rows, norm->cols);
    const ElementCost cost =
        layer_norm ? layer_norm_element_cost(dtype) : rms_norm_element_cost(dtype);
    work.kernel = layer_norm ? "layernorm" : "rmsnorm";
    work.dtype = opmath;
    work.vector_ops = times(elements, cost.lane_ops);
    work.sfu_ops = times(elements, cost.sfu_ops) + norm->rows;  // and one rsqrt per row
    work.dram_read_bytes = times(elements + (layer_norm ? 2 : 1) * norm->cols, elem);
    work.dram_write_bytes = times(elements, elem);
    work.l2_bytes =
        times(elements, elem) * row_reads(params, norm->cols, elem, 2) + work.dram_write_bytes;
    work.parallel_items = norm->rows;
  } else if (const auto* softmax = std::get_if<ir::SoftmaxAttrs>(&op.attrs)) {
    const int64_t elements = times(softmax->rows, softmax->cols);
    const ElementCost cost = softmax_element_cost(dtype);
    work.kernel = "softmax";
    work.dtype = opmath;
    work.vector_ops = times(elements, cost.lane_ops);
    work.sfu_ops = times(elements, cost.sfu_ops);
    work.dram_read_bytes = times(elements, elem);
    work.dram_write_bytes = times(elements, elem);
    work.l2_bytes =
        times(elements, elem) * row_reads(params, softmax->cols, elem, 2) + work.dram_write_bytes;
    work.parallel_items = softmax->rows;
  } else if (const auto* reduce = std::get_if<ir::ReduceAttrs>(&op.attrs)) {
    work.kernel = "reduce";
    work.vector_ops = times(reduce->rows, reduce->cols);
    work.dram_read_bytes = times(work.vector_ops, elem);
    work.dram_write_bytes = times(reduce->rows, elem);
    work.parallel_items = reduce->rows;
  } else if (const auto* pool = std::get_if<ir::PoolAttrs>(&op.attrs)) {
    const int64_t outputs = times(times(pool->n, pool->c), times(pool->out_h(), pool->out_w()));
    work.kernel = "pool";
    work.vector_ops = times(outputs, times(pool->r, pool->s));
    work.dram_read_bytes = times(times(times(pool->n, pool->c), times(pool->h, pool->w)), elem);
    work.dram_write_bytes = times(outputs, elem);
    work.parallel_items = times(pool->n, pool->c);
  } else if (const auto* embedding = std::get_if<ir::EmbeddingAttrs>(&op.attrs)) {
    const int64_t elements = times(embedding->rows, embedding->cols);
    work.kernel = "gather";
    work.dram_read_bytes = times(elements, elem) + times(embedding->rows, 8);  // int64 indices
    work.dram_write_bytes = times(elements, elem);
    work.parallel_items = embedding->rows;
  } else if (const auto* copy = std::get_if<ir::CopyAttrs>(&op.attrs)) {
    work.kernel = copy->is_view ? "view" : "copy";
    work.dram_read_bytes = copy->is_view ? 0 : copy->bytes;
    work.dram_write_bytes = copy->is_view ? 0 : copy->bytes;
    work.parallel_items = std::max<int64_t>(1, copy->bytes / elem);
  } else {
    throw_bad_input(op.where, "op '" + op.name + "' of kind " +
                                  std::string(ir::op_kind_name(op.kind())) +
                                  " is not a streaming kernel");
  }
  if (work.l2_bytes == 0) work.l2_bytes = work.dram_read_bytes + work.dram_write_bytes;
  return work;
}

KernelPlan plan_streaming(const SimdParams& params, const StreamingWork& work) {
  KernelPlan plan;
  plan.kernel = work.kernel;
  plan.flops = work.flops;
  plan.l2_bytes = work.l2_bytes;
  plan.peak_flops_per_cycle =
      static_cast<double>(params.count) *
      static_cast<double>(params.core_vector_elements_per_cycle(work.dtype));
  plan.mapping_efficiency = 1.0;
  // Activity: the op's lane ops and SFU results; its L2 traffic streams through the scratchpad.
  if (work.vector_ops > 0) plan.vector_ops[work.dtype] = work.vector_ops;
  plan.sfu_ops = work.sfu_ops;
  plan.scratchpad_bytes = work.l2_bytes;
  const int64_t traffic = std::max(work.l2_bytes, work.dram_read_bytes + work.dram_write_bytes);
  if (traffic == 0 && work.vector_ops == 0 && work.sfu_ops == 0) {
    plan.mapping = {{"kernel", plan.kernel}, {"steps", 0}};
    return plan;  // a view: nothing moves
  }
  const int64_t active = std::max<int64_t>(1, std::min(params.count, work.parallel_items));
  const int64_t steps = std::clamp<int64_t>(
      ceil_div(traffic, checked_mul(active, kChunkBytesPerCore, "bytes")), 1, kMaxSteps);

  CoreWork core;
  core.vector_ops = ceil_div(work.vector_ops, steps * active);
  core.vector_ops_per_cycle = params.core_vector_elements_per_cycle(work.dtype);
  core.sfu_ops = ceil_div(work.sfu_ops, steps * active);
  core.scratchpad_bytes = ceil_div(work.l2_bytes, steps * active);
  core.l2_bytes = core.scratchpad_bytes;
  core.active_cores = active;
  KernelStep step = step_cost(params, core);
  KernelStep first = step;
  step.dram_read_bytes = work.dram_read_bytes / steps;
  step.dram_write_bytes = work.dram_write_bytes / steps;
  first.dram_read_bytes = work.dram_read_bytes - step.dram_read_bytes * (steps - 1);
  first.dram_write_bytes = work.dram_write_bytes - step.dram_write_bytes * (steps - 1);
  plan.add_block({{first, 1}, {step, steps - 1}}, 1);
  plan.mapping = {{"kernel", plan.kernel},
                  {"active_cores", active},
                  {"steps", steps},
                  {"bytes_per_core_step", ceil_div(traffic, steps * active)}};
  return plan;
}

}  // namespace polyarch::archs::simd
