// Per-element costs of the library routines: the sums composed functions and row kernels are
// made of, derived by hand from the counted routines (library_math.cpp's comment).
#include "archs/simd/library_math.h"

#include <gtest/gtest.h>

namespace polyarch::archs::simd {
namespace {

void expect_cost(const ElementCost& cost, int64_t lane_ops, int64_t sfu_ops) {
  EXPECT_EQ(cost.lane_ops, lane_ops);
  EXPECT_EQ(cost.sfu_ops, sfu_ops);
}

TEST(LibraryMath, SixteenBitFloatsAreComputedInFp32WithAConversionEachWay) {
  EXPECT_EQ(opmath_dtype(ir::DType::kBf16), ir::DType::kFp32);
  EXPECT_EQ(opmath_dtype(ir::DType::kFp16), ir::DType::kFp32);
  EXPECT_EQ(opmath_dtype(ir::DType::kFp32), ir::DType::kFp32);
  EXPECT_EQ(opmath_dtype(ir::DType::kInt8), ir::DType::kInt8);
  // 8-bit floats too (PyTorch's Float8 types compute in float32); fp64 and int32 stay.
  EXPECT_EQ(opmath_dtype(ir::DType::kFp8E4M3), ir::DType::kFp32);
  EXPECT_EQ(opmath_dtype(ir::DType::kFp8E5M2), ir::DType::kFp32);
  EXPECT_EQ(opmath_dtype(ir::DType::kFp64), ir::DType::kFp64);
  EXPECT_EQ(opmath_dtype(ir::DType::kInt32), ir::DType::kInt32);
  EXPECT_EQ(conversion_ops(ir::DType::kFp8E4M3), 1);
  EXPECT_EQ(conversion_ops(ir::DType::kBf16), 1);
  EXPECT_EQ(conversion_ops(ir::DType::kFp32), 0);
  EXPECT_EQ(conversion_ops(ir::DType::kInt8), 0);
}

// tan = sin / cos: two 24-op fast paths and an IEEE division (1 reciprocal approximation and 8
// lane ops); pow = exp(y log x): 28 + 9 lane ops, the multiply, one exp2.
TEST(LibraryMath, ComposedFunctionsCostTheirParts) {
  expect_cost(element_cost("tan"), 24 + 24 + 8, 1);
  expect_cost(element_cost("pow"), 28 + 9 + 1, 1);
  expect_cost(element_cost("lrn"), 28 + 9 + 8, 1);
}

// GELU's tanh form is tanhf's routine (15 lane ops, two approximations) on the formula's own
// seven: x * x, * x, 0.044715 x^3 + x, * sqrt(2/pi), 0.5 * x, 1 + tanh, the product; an op
// stating the tanh form gets it, not the erf form's 28 + 1.
TEST(LibraryMath, GeluTanhFormIsTanhOnSevenFormulaOps) {
  const ElementCost tanh = element_cost("tanh");
  ir::ElementwiseAttrs gelu{.fn = "gelu", .elements = 16, .inputs = 1};
  expect_cost(element_cost(gelu), 28, 1);
  gelu.approximate_tanh = true;
  expect_cost(element_cost(gelu), tanh.lane_ops + 7, tanh.sfu_ops);
}

TEST(LibraryMath, FunctionsWithoutARoutineCostOneLaneOp) {
  expect_cost(element_cost("relu"), 1, 0);
  expect_cost(element_cost("add"), 1, 0);
  expect_cost(element_cost("copy"), 0, 0);
}

// max (1); x - max, exp (9 + one exp2), add (1 + 9 + 1); x - max, exp, divide (1 + 9 + 8, an
// exp2 and a reciprocal): the exponential is computed twice, as PyTorch's kernel does; bf16 rows
// are converted on each of the three passes and the result once more.
TEST(LibraryMath, SoftmaxComputesEachExponentialTwice) {
  expect_cost(softmax_element_cost(ir::DType::kFp32), 1 + 11 + 18, 3);
  expect_cost(softmax_element_cost(ir::DType::kBf16), 1 + 11 + 18 + 4, 3);
}

// Welford's five lane ops and its reciprocal (4 lane ops, one approximation), then the three of
// the normalisation; RMS norm: one multiply-add, two multiplies. In bf16, layer norm converts x
// on both passes, gamma, beta and the result (5); RMS norm x twice, gamma and the result (4).
TEST(LibraryMath, NormsCountWelfordsReciprocalPerElement) {
  expect_cost(layer_norm_element_cost(ir::DType::kFp32), 5 + 4 + 3, 1);
  expect_cost(rms_norm_element_cost(ir::DType::kFp32), 3, 0);
  expect_cost(layer_norm_element_cost(ir::DType::kBf16), 5 + 4 + 3 + 5, 1);
  expect_cost(rms_norm_element_cost(ir::DType::kBf16), 3 + 4, 0);
}

}  // namespace
}  // namespace polyarch::archs::simd
