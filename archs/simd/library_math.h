#pragma once
// What a library's kernel computes per element of an elementwise function, a softmax or a norm
// on a simd unit: lane instructions and special-function (SFU) results of the accurate math
// routines libraries are built with (no fast-math: PyTorch, cuDNN and the CUDA math library's
// default), in fp32 for 16- and 8-bit floats (PyTorch's opmath type), with the conversions in
// and out.
// Equations and counts: README.md "Streaming kernels".
#include <cstdint>
#include <string>

#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

struct ElementCost {
  int64_t lane_ops = 1;  // ALU, FMA, compare, select, integer: one lane result each
  int64_t sfu_ops = 0;   // MUFU approximations the routine starts from (exp2, rcp, rsqrt, ...)
};

// One result of an Elementwise function `fn` from its operands already in fp32 (conversions
// not included). Unknown functions cost one lane op (relu, add, mul, max, copy-like).
ElementCost element_cost(const std::string& fn);
// The same for an Elementwise op: its function, in the form the op states (GELU's tanh form is
// its own routine).
ElementCost element_cost(const ir::ElementwiseAttrs& elementwise);

// The type a library computes an op of `stored` elements in: fp32 for floats narrower than
// fp32 (fp16, bf16, fp8), else the stored type.
ir::DType opmath_dtype(ir::DType stored);

// Lane ops converting one element between `stored` and its opmath type (0 when they agree).
int64_t conversion_ops(ir::DType stored);

// Per element of a row of `stored` elements, the library row kernels' work in the opmath type,
// with their conversions: PyTorch's softmax takes the max, then sums exp(x - max), then writes
// exp(x - max) / sum, computing the exponential twice (SoftMax.cu) and converting the row on
// each of its three passes and the result once; its layer norm runs Welford's update with one
// reciprocal per element, then (x - mean) * rstd * gamma + beta (layer_norm_kernel.cu),
// converting x on both passes, gamma, beta and the result; RMS norm a sum of squares, then
// x * rstd * gamma, converting x twice, gamma and the result.
ElementCost softmax_element_cost(ir::DType stored);
ElementCost layer_norm_element_cost(ir::DType stored);
ElementCost rms_norm_element_cost(ir::DType stored);

}  // namespace polyarch::archs::simd
