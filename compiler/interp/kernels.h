#pragma once
// fp32 reference kernels of the canonical ops, written for clarity rather than speed: each is
// the textbook loop nest of its ONNX operator, so tests can hold them against naive references
// and the interpreter against ONNX Runtime.
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/op.h"

namespace polyarch::interp {

// ONNX Gemm: alpha * op(A) * op(B) + beta * C with 2-D A and B, C broadcast to [m, n].
struct GemmOptions {
  bool trans_a = false;
  bool trans_b = false;
  float alpha = 1.0f;
  float beta = 1.0f;
};
DenseTensor gemm(const DenseTensor& a, const DenseTensor& b, const DenseTensor* c,
                 const GemmOptions& options);

// NumPy matmul: [..., m, k] x [..., k, n] with broadcast batch axes (1-D operands promoted).
DenseTensor matmul(const DenseTensor& a, const DenseTensor& b);

// NCHW convolution with the attributes' stride, dilation, begin padding and groups; `bias` per
// filter.
DenseTensor conv2d(const DenseTensor& input, const DenseTensor& weight, const DenseTensor* bias,
                   const ir::Conv2dAttrs& attrs);

// Max pools skip padding; average pools divide by the window's elements inside the input
// unless `count_include_pad`. A global pool averages (or, with kMax semantics requested through
// `global_max`, takes the maximum of) the whole plane.
DenseTensor pool(const DenseTensor& input, const ir::PoolAttrs& attrs, bool count_include_pad,
                 bool global_max);

// BatchNormalization of [N, C, ...] over each channel in training mode: normalised by the
// batch's mean and population variance, and the running statistics updated as
// running = given * momentum + batch * (1 - momentum); returns Y, running mean, running variance.
std::vector<DenseTensor> batch_norm_training(const DenseTensor& input, const DenseTensor& scale,
                                             const DenseTensor& bias, const DenseTensor& mean,
                                             const DenseTensor& variance, double epsilon,
                                             double momentum);

// LayerNorm: (x - mean) / sqrt(var + eps) * scale + bias over each row of `cols` trailing
// elements; RMSNorm: x / sqrt(mean(x^2) + eps) * scale.
DenseTensor norm(const DenseTensor& input, const DenseTensor& scale, const DenseTensor* bias,
                 ir::NormKind kind, int64_t cols, float epsilon);

// Softmax (or log-softmax) along `axis`.
DenseTensor softmax(const DenseTensor& input, int64_t axis, bool log);

// Reduces `axes` with "mean", "sum", "max", "min", "prod", "l1" (sum of |x|), "l2" (sqrt of the
// sum of squares), "sumsquare", "logsum" (log of the sum) or "logsumexp"; the result takes
// `result_shape` (kept or dropped axes alike).
DenseTensor reduce(const DenseTensor& input, const std::vector<int64_t>& axes,
                   const std::string& fn, const Shape& result_shape);

// Index of the largest (take_max) or smallest element along `axis`: the first one of equal
// values, or the last with `select_last`. The result has `result_shape` (axis kept or dropped).
DenseTensor arg_reduce(const DenseTensor& input, int64_t axis, bool take_max, bool select_last,
                       const Shape& result_shape);

// Gathers along `axis` (negative indices count from the end): indices.shape replaces the axis.
DenseTensor gather(const DenseTensor& data, const DenseTensor& indices, int64_t axis);

// Permutes axes: result axis i is input axis perm[i].
DenseTensor transpose(const DenseTensor& input, const std::vector<int64_t>& perm);

// Joins along `axis`.
DenseTensor concat(const std::vector<const DenseTensor*>& inputs, int64_t axis);

// Splits along `axis` into pieces of the given sizes.
std::vector<DenseTensor> split(const DenseTensor& input, int64_t axis,
                               const std::vector<int64_t>& sizes);

// ONNX Slice: for each listed axis, elements start, start + step, ... before end (negative
// bounds count from the end; bounds are clamped to the axis, as ONNX specifies).
struct SliceBounds {
  std::vector<int64_t> starts;
  std::vector<int64_t> ends;
  std::vector<int64_t> axes;   // non-negative
  std::vector<int64_t> steps;  // non-zero
};
DenseTensor slice(const DenseTensor& input, const SliceBounds& bounds);

// NumPy broadcasting of an operand to `shape`.
DenseTensor broadcast_to(const DenseTensor& input, const Shape& shape);

// Elementwise function `fn` (the lowering's lower-case ONNX name) of operands broadcast to
// `result_shape`; `result_dtype` sets Cast's and QuantizeLinear's rounding and range.
// `attributes` is the imported node's (alpha, epsilon, axis), null for defaults; operands are
// in ONNX positions, omitted optional ones null. Per-channel operands of batchnorm, quantize
// and dequantize run along the channel axis (1, or the node's `axis`).
DenseTensor elementwise(const std::string& fn, const std::vector<const DenseTensor*>& operands,
                        const Shape& result_shape, ir::DType result_dtype,
                        const ir::OnnxNodeAttrs* attributes);

}  // namespace polyarch::interp
