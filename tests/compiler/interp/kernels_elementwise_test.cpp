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

}  // namespace
}  // namespace polyarch::interp
