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

// 6.738763809204102f / 0.05735118314623833f is 117.4999963... exactly, which fp32 division
// rounds to the tie 117.5, and that to the even 118: ONNX divides the fp32 operands in fp32.
TEST(ElementwiseKernel, QuantizeDividesInFp32) {
  const DenseTensor x{{1}, {6.738763809204102f}};
  const DenseTensor scale{{}, {0.05735118314623833f}};
  const DenseTensor zero{{}, {0}};
  EXPECT_EQ(elementwise("quantize", {&x, &scale, &zero}, {1}, ir::DType::kUint8, nullptr).values,
            (std::vector<float>{118}));
}

TEST(ElementwiseKernel, RoundTakesHalvesToEvenAndSignKeepsZero) {
  const DenseTensor x{{6}, {0.5f, 1.5f, 2.5f, -2.5f, 2.4f, -0.0f}};
  EXPECT_EQ(elementwise("round", {&x}, {6}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{0, 2, 2, -2, 2, 0}));
  const DenseTensor y{{3}, {-3, 0, 0.25f}};
  EXPECT_EQ(elementwise("sign", {&y}, {3}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{-1, 0, 1}));
}

TEST(ElementwiseKernel, TrigonometricAndHyperbolicFunctions) {
  const auto at = [](const char* fn, float x) {
    const DenseTensor input{{1}, {x}};
    return elementwise(fn, {&input}, {1}, ir::DType::kFp32, nullptr).values[0];
  };
  EXPECT_FLOAT_EQ(at("sin", 0.5f), 0.47942554f);
  EXPECT_FLOAT_EQ(at("cos", 0.5f), 0.87758256f);
  EXPECT_FLOAT_EQ(at("tan", 0.5f), 0.54630249f);
  EXPECT_FLOAT_EQ(at("asin", 1.0f), 1.5707964f);    // pi / 2
  EXPECT_FLOAT_EQ(at("acos", -1.0f), 3.1415927f);   // pi
  EXPECT_FLOAT_EQ(at("atan", 1.0f), 0.78539819f);   // pi / 4
  EXPECT_FLOAT_EQ(at("sinh", 1.0f), 1.1752012f);    // (e - 1/e) / 2
  EXPECT_FLOAT_EQ(at("cosh", 1.0f), 1.5430806f);    // (e + 1/e) / 2
  EXPECT_FLOAT_EQ(at("asinh", 1.0f), 0.88137359f);  // ln(1 + sqrt 2)
  EXPECT_FLOAT_EQ(at("acosh", 1.0f), 0.0f);
  EXPECT_FLOAT_EQ(at("atanh", 0.5f), 0.54930615f);     // ln(3) / 2
  EXPECT_FLOAT_EQ(at("softplus", 0.0f), 0.69314718f);  // ln 2
  EXPECT_FLOAT_EQ(at("softsign", 1.0f), 0.5f);
  EXPECT_FLOAT_EQ(at("mish", 1.0f), 0.86509836f);  // tanh(ln(1 + e))
}

TEST(ElementwiseKernel, ExponentialLinearUnitsAndThresholds) {
  ir::OnnxNodeAttrs alpha_two;
  alpha_two.attributes["alpha"] = 2.0;
  const DenseTensor x{{3}, {-1, 0.5f, 1.5f}};
  const std::vector<float> elu = elementwise("elu", {&x}, {3}, ir::DType::kFp32, &alpha_two).values;
  EXPECT_FLOAT_EQ(elu[0], 2 * (std::exp(-1.0f) - 1));
  EXPECT_EQ(elu[1], 0.5f);
  // Celu with alpha 2: 2 (e^(-1/2) - 1) below zero.
  EXPECT_FLOAT_EQ(elementwise("celu", {&x}, {3}, ir::DType::kFp32, &alpha_two).values[0],
                  2 * (std::exp(-0.5f) - 1));
  // Selu's defaults: gamma 1.0507..., gamma * alpha (e^x - 1) = -1.1113307 at -1.
  const std::vector<float> selu = elementwise("selu", {&x}, {3}, ir::DType::kFp32, nullptr).values;
  EXPECT_FLOAT_EQ(selu[0], -1.1113307f);
  EXPECT_FLOAT_EQ(selu[2], 1.5760515f);
  // ThresholdedRelu keeps x > alpha (1 by default).
  EXPECT_EQ(elementwise("thresholdedrelu", {&x}, {3}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{0, 0, 1.5f}));
  // Shrink with lambd 0.5 (default) and bias 0.5: |x| <= 0.5 is 0, the rest moves toward 0.
  ir::OnnxNodeAttrs bias;
  bias.attributes["bias"] = 0.5;
  EXPECT_EQ(elementwise("shrink", {&x}, {3}, ir::DType::kFp32, &bias).values,
            (std::vector<float>{-0.5f, 0, 1}));
}

// uint8: 200 << 1 = 400 wraps to 144; 1 << 8 shifts the bit out; 200 >> 3 = 25.
TEST(ElementwiseKernel, BitShiftWrapsAtTheResultTypesWidth) {
  const DenseTensor x{{3}, {200, 1, 200}};
  const DenseTensor left_by{{3}, {1, 8, 0}};
  ir::OnnxNodeAttrs left;
  left.attributes["direction"] = std::string("LEFT");
  EXPECT_EQ(elementwise("bitshift", {&x, &left_by}, {3}, ir::DType::kUint8, &left).values,
            (std::vector<float>{144, 0, 200}));
  ir::OnnxNodeAttrs right;
  right.attributes["direction"] = std::string("RIGHT");
  const DenseTensor right_by{{3}, {3, 0, 9}};
  EXPECT_EQ(elementwise("bitshift", {&x, &right_by}, {3}, ir::DType::kUint8, &right).values,
            (std::vector<float>{25, 1, 0}));
}

TEST(ElementwiseKernel, PReluSlopesNegativesAndMeanAveragesOperands) {
  const DenseTensor x{{2, 2}, {-2, 3, -4, 5}};
  const DenseTensor slope{{2}, {0.5f, 0.25f}};
  EXPECT_EQ(elementwise("prelu", {&x, &slope}, {2, 2}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{-1, 3, -2, 5}));
  const DenseTensor a{{2}, {1, 2}};
  const DenseTensor b{{2}, {3, 6}};
  const DenseTensor c{{}, {5}};
  EXPECT_EQ(elementwise("mean", {&a, &b, &c}, {2}, ir::DType::kFp32, nullptr).values,
            (std::vector<float>{3, 13.0f / 3}));
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
