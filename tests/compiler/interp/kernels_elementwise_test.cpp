// Elementwise functions: broadcasting, attributes, omitted operands and int8 (de)quantisation.
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/interp/kernels.h"

namespace polyarch::interp {
namespace {

TEST(ElementwiseKernel, BinaryFunctionsBroadcast) {
  const DenseTensor a{{2, 2}, {1, 2, 3, 4}};
  const DenseTensor b{{2}, {10, 20}};
  EXPECT_EQ(elementwise("add", {&a, &b}, {2, 2}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{11, 22, 13, 24}));
  EXPECT_EQ(elementwise("greater", {&a, &b}, {2, 2}, ir::DType::kBool, nullptr).values,
            (std::vector<float>{0, 0, 0, 0}));
}

TEST(ElementwiseKernel, ClipWithOmittedMinimumIsUnboundedBelow) {
  const DenseTensor x{{3}, {-100, 3, 9}};
  const DenseTensor high{{}, {6}};
  EXPECT_EQ(elementwise("clip", {&x, nullptr, &high}, {3}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{-100, 3, 6}));
}

TEST(ElementwiseKernel, GeluIsTheErfForm) {
  const DenseTensor x{{1}, {1}};
  EXPECT_FLOAT_EQ(elementwise("gelu", {&x}, {1}, ir::DType::kFp32, nullptr).values[0],
                  0.5f * (1 + std::erf(1 / std::sqrt(2.0f))));
}

// ONNX QuantizeLinear: round half to even, add the zero point, saturate to the result type.
TEST(ElementwiseKernel, QuantizeRoundsHalfToEvenAndSaturates) {
  const DenseTensor x{{5}, {0.5f, 1.5f, 2.5f, -1000, 1000}};
  const DenseTensor scale{{}, {1}};
  const DenseTensor zero{{}, {0}};
  EXPECT_EQ(elementwise("quantize", {&x, &scale, &zero}, {5}, ir::DType::kInt8, nullptr).values,
            (std::vector<float>{0, 2, 2, -128, 127}));
  const DenseTensor offset{{}, {128}};
  EXPECT_EQ(elementwise("quantize", {&x, &scale, &offset}, {5}, ir::DType::kUint8, nullptr).values,
            (std::vector<float>{128, 130, 130, 0, 255}));
}

TEST(ElementwiseKernel, DequantizePerChannelRunsAlongAxisOne) {
  const DenseTensor q{{1, 2, 1, 1}, {10, 10}};
  const DenseTensor scales{{2}, {0.5f, 2}};
  const DenseTensor zeros{{2}, {0, 5}};
  EXPECT_EQ(
      elementwise("dequantize", {&q, &scales, &zeros}, {1, 2, 1, 1}, ir::DType::kFp32, nullptr)
          .values,
      (std::vector<float>{5, 10}));
}

// ONNX Mod: fmod=0 (the default) gives the divisor's sign, as Python's %; fmod=1 the
// dividend's, as C's fmod. ONNX's test_mod_mixed_sign: [-4, 7, 5, 4, -7, 8] mod [2, -3, 8, -2,
// 3, 5] is [0, -2, 5, 0, 2, 3].
TEST(ElementwiseKernel, ModTakesTheDivisorsSignUnlessFmod) {
  const DenseTensor x{{6}, {-4, 7, 5, 4, -7, 8}};
  const DenseTensor y{{6}, {2, -3, 8, -2, 3, 5}};
  EXPECT_EQ(elementwise("mod", {&x, &y}, {6}, ir::DType::kInt32, nullptr).values,
            (std::vector<float>{0, -2, 5, 0, 2, 3}));
  ir::OnnxNodeAttrs c_style;
  c_style.attributes["fmod"] = int64_t{1};
  EXPECT_EQ(elementwise("mod", {&x, &y}, {6}, ir::DType::kInt32, &c_style).values,
            (std::vector<float>{0, 1, 5, 0, -1, 3}));
}

TEST(ElementwiseKernel, IntegerDivisionTruncatesTowardZero) {
  const DenseTensor x{{4}, {7, -7, 16, 3}};
  const DenseTensor y{{4}, {2, 2, 11, 4}};
  EXPECT_EQ(elementwise("div", {&x, &y}, {4}, ir::DType::kInt64, nullptr).values,
            (std::vector<float>{3, -3, 1, 0}));
  EXPECT_EQ(elementwise("div", {&x, &y}, {4}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{3.5f, -3.5f, 16.0f / 11.0f, 0.75f}));
}

// binary16 has 10 fraction bits: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 and goes to the
// even 1; 1 + 3 * 2^-11 goes up to 1 + 2^-9. 65504 is the largest finite value; 65520 is
// halfway to the next power of two and overflows. 2^-25 is halfway to the smallest subnormal.
TEST(ElementwiseKernel, CastToFp16RoundsToNearestEven) {
  const DenseTensor x{
      {7},
      {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65519.0f, 65520.0f, -70000.0f, 0x1p-25f, 0x1.8p-25f}};
  const std::vector<float> halves =
      elementwise("cast", {&x}, {7}, ir::DType::kFp16, nullptr).values;
  EXPECT_EQ(halves[0], 1.0f);
  EXPECT_EQ(halves[1], 1.0f + 0x1p-9f);
  EXPECT_EQ(halves[2], 65504.0f);
  EXPECT_TRUE(std::isinf(halves[3]) && halves[3] > 0);
  EXPECT_TRUE(std::isinf(halves[4]) && halves[4] < 0);
  EXPECT_EQ(halves[5], 0.0f);
  EXPECT_EQ(halves[6], 0x1p-24f);
}

TEST(ElementwiseKernel, IsInfDetectsTheSignsItsAttributesAsk) {
  const DenseTensor x{{4}, {-INFINITY, INFINITY, 1.0f, NAN}};
  EXPECT_EQ(elementwise("isinf", {&x}, {4}, ir::DType::kBool, nullptr).values,
            (std::vector<float>{1, 1, 0, 0}));
  ir::OnnxNodeAttrs negative_only;
  negative_only.attributes["detect_positive"] = int64_t{0};
  EXPECT_EQ(elementwise("isinf", {&x}, {4}, ir::DType::kBool, &negative_only).values,
            (std::vector<float>{1, 0, 0, 0}));
}

}  // namespace
}  // namespace polyarch::interp
