#include "archs/simd/library_math.h"

#include <map>

namespace polyarch::archs::simd {

namespace {

ElementCost plus(ElementCost a, ElementCost b) {
  return {a.lane_ops + b.lane_ops, a.sfu_ops + b.sfu_ops};
}

ElementCost lanes(int64_t ops) { return {ops, 0}; }

}  // namespace

// The counts are the arithmetic instructions of CUDA's accurate single-precision routines
// (libdevice, as nvcc 13.0 compiles them at -O3 for sm_90 without fast math: `erff`, `expf`,
// `tanhf`, ...), read from the PTX of a one-element kernel per function with the load, store
// and index arithmetic of a plain copy subtracted; MUFU approximations (ex2, rcp, rsqrt) count
// as SFU results. The IEEE-rounded division, reciprocal and square root are single PTX
// instructions that the assembler expands into an SFU approximation refined by Newton-Raphson
// FMAs and a range check: counted as 1 SFU result and 8, 4 and 6 lane ops. Routines with a
// rarely taken slow path (sin and cos beyond |x| > 105615, whose Payne-Hanek reduction is a
// loop) count their fast path. Functions without a routine of their own are composed: tan as
// sin / cos, pow as exp(y log x), LRN's (bias + k sum)^-beta by log and exp after a
// multiply-add per channel of its (usual, 5-wide) window.
ElementCost element_cost(const std::string& fn) {
  static const ElementCost kExp{9, 1};
  static const ElementCost kLog{28, 0};
  static const ElementCost kDiv{8, 1};
  static const ElementCost kSin{24, 0};
  static const std::map<std::string, ElementCost> kCosts = {
      {"exp", kExp},
      {"log", kLog},
      {"div", kDiv},
      {"sin", kSin},
      {"cos", kSin},
      {"tan", plus(plus(kSin, kSin), kDiv)},
      {"pow", plus(plus(kLog, kExp), lanes(1))},
      {"lrn", plus(plus(kLog, kExp), lanes(8))},
      {"sqrt", {6, 1}},
      {"reciprocal", {4, 1}},
      {"rsqrt", {0, 1}},
      {"erf", {26, 1}},
      {"gelu", {28, 1}},  // x/2 (1 + erf(x/sqrt 2)), ONNX's and PyTorch's default form
      // x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as PyTorch's GeluCUDAKernelImpl writes
      // it for approximate="tanh": the cube and inner multiply-add, then tanhf's routine.
      {"gelu_tanh", {22, 2}},
      {"tanh", {15, 2}},
      {"sigmoid", {14, 2}},
      {"silu", {18, 2}},
      {"softplus", {38, 1}},
      {"mish", {54, 3}},
      {"softsign", {10, 1}},
      {"elu", {13, 1}},
      {"selu", {15, 1}},
      {"celu", {12, 1}},
      {"sinh", {24, 1}},
      {"cosh", {15, 1}},
      {"asinh", {41, 2}},
      {"acosh", {43, 1}},
      {"atanh", {37, 1}},
      {"asin", {25, 1}},
      {"acos", {28, 1}},
      {"atan", {20, 1}},
      {"copy", lanes(0)},  // moves its operand: no arithmetic, nothing converted
      // Select-and-arithmetic functions: their compares, selects and multiply-adds.
      {"batchnorm", lanes(2)},
      {"quantize", lanes(3)},
      {"dequantize", lanes(2)},
      {"sign", lanes(2)},
      {"thresholdedrelu", lanes(2)},
      {"shrink", lanes(3)},
      {"prelu", lanes(2)},
      {"mean", lanes(2)},
      {"hardmax", lanes(2)}};
  auto found = kCosts.find(fn);
  return found == kCosts.end() ? ElementCost{} : found->second;
}

ElementCost element_cost(const ir::ElementwiseAttrs& elementwise) {
  return element_cost(elementwise.approximate_tanh ? "gelu_tanh" : elementwise.fn);
}

// PyTorch's opmath type is float for Half and BFloat16 (c10/util/OpMathType.h), and its 8-bit
// floats do their arithmetic by converting to fp32 (c10/util/Float8_e4m3fn.h: "arithmetic
// operations are implemented by converting to floating point and performing the operation in
// float32"); no unit's lanes compute in fp8.
ir::DType opmath_dtype(ir::DType stored) {
  return ir::is_float(stored) && ir::dtype_bits(stored) < 32 ? ir::DType::kFp32 : stored;
}

int64_t conversion_ops(ir::DType stored) { return opmath_dtype(stored) == stored ? 0 : 1; }

ElementCost softmax_element_cost(ir::DType stored) {
  const ElementCost exp = element_cost("exp");
  // max; x - max, exp, add to the sum; x - max, exp, divide by the sum.
  const ElementCost work =
      plus(plus(lanes(1), plus(exp, lanes(2))), plus(plus(exp, element_cost("div")), lanes(1)));
  return plus(work, lanes(4 * conversion_ops(stored)));
}

ElementCost layer_norm_element_cost(ir::DType stored) {
  // Welford: delta = x - mean, count + 1, 1/count, mean += delta/count, x - mean,
  // sigma2 += delta (x - mean); then (x - mean) * rstd * gamma + beta.
  const ElementCost work = plus(plus(lanes(5), element_cost("reciprocal")), lanes(3));
  return plus(work, lanes(5 * conversion_ops(stored)));
}

ElementCost rms_norm_element_cost(ir::DType stored) {
  // sum += x * x; then x * rstd * gamma.
  return lanes(3 + 4 * conversion_ops(stored));
}

}  // namespace polyarch::archs::simd
