#pragma once
// Bandwidth-bound kernels on a simd unit (elementwise, norms, softmax, reductions, pooling,
// embedding lookups, copies): the op's element work and bytes spread over the cores in chunks
// that stream through the scratchpad. Equations: README.md "Streaming kernels".
#include <cstdint>
#include <string>

#include "archs/simd/kernel_plan.h"
#include "archs/simd/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

struct StreamingWork {
  std::string kernel;
  int64_t vector_ops = 0;  // element operations on the vector lanes
  int64_t sfu_ops = 0;     // transcendental results
  int64_t flops = 0;       // for the roofline: the op's arithmetic (ir::flop_count)
  int64_t dram_read_bytes = 0;
  int64_t dram_write_bytes = 0;
  int64_t l2_bytes = 0;        // through the cores' ports: a two-pass row kernel reads twice
  int64_t parallel_items = 1;  // independent pieces (rows; elements for elementwise)
  ir::DType dtype = ir::DType::kFp32;  // element type of the arithmetic
};

// The work of a streaming op (Elementwise, Norm, Softmax, Reduce, Pool, Embedding, Copy).
StreamingWork streaming_work(const SimdParams& params, const ir::Op& op, ir::DType dtype);

KernelPlan plan_streaming(const SimdParams& params, const StreamingWork& work);

}  // namespace polyarch::archs::simd
