#include "tests/onnx_conformance/compare_outputs.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>

namespace polyarch::onnx_conformance {
namespace {

// A 1-D tensor of `values`, stored as ONNX element type `element_type` (whose C++ type is T).
template <typename T>
StoredTensor stored(int32_t element_type, std::vector<T> values) {
  StoredTensor tensor;
  tensor.element_type = element_type;
  tensor.dims = {static_cast<int64_t>(values.size())};
  tensor.bytes.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  return tensor;
}

StoredTensor real_tensor(std::vector<float> values) {
  return stored(onnx::TensorProto::FLOAT, std::move(values));
}

StoredTensor int64_tensor(std::vector<int64_t> values) {
  return stored(onnx::TensorProto::INT64, std::move(values));
}

TEST(CompareOutputs, RealsMatchWithinOnnxsRelativeAndAbsoluteTolerance) {
  // |actual - expected| <= 1e-7 + 1e-3 |expected|: 1000 admits 1.0000001 either way.
  const StoredTensor thousand = real_tensor({1000.0f});
  EXPECT_TRUE(element_matches(thousand, 0, 1000.99f));
  EXPECT_FALSE(element_matches(thousand, 0, 1001.01f));
  const StoredTensor zero = real_tensor({0.0f});
  EXPECT_TRUE(element_matches(zero, 0, 5e-8f));
  EXPECT_FALSE(element_matches(zero, 0, 2e-7f));
}

TEST(CompareOutputs, NanMatchesOnlyNanAndInfinityOnlyItself) {
  const StoredTensor special = real_tensor({NAN, INFINITY});
  EXPECT_TRUE(element_matches(special, 0, NAN));
  EXPECT_FALSE(element_matches(special, 0, 0.0f));
  EXPECT_TRUE(element_matches(special, 1, INFINITY));
  EXPECT_FALSE(element_matches(special, 1, -INFINITY));
  EXPECT_FALSE(element_matches(special, 1, 3e38f));
}

TEST(CompareOutputs, IntegersMatchOnlyExactly) {
  const StoredTensor ints = int64_tensor({3, -7, 16777217});
  EXPECT_TRUE(element_matches(ints, 0, 3.0f));
  EXPECT_FALSE(element_matches(ints, 0, 3.0002f));  // within a real's tolerance
  EXPECT_TRUE(element_matches(ints, 1, -7.0f));
  // 2^24 + 1 has no float32: the nearest float is 2^24, which is another integer.
  EXPECT_FALSE(element_matches(ints, 2, 16777216.0f));
}

TEST(CompareOutputs, MismatchSaysWhereAndHowManyOrThatTheShapeDiffers) {
  const StoredTensor expected = real_tensor({1.0f, 2.0f, 3.0f});
  interp::DenseTensor actual;
  actual.shape = {3};
  actual.values = {1.0f, 2.5f, 4.0f};
  EXPECT_EQ(output_mismatch(expected, actual),
            "2 of 3 elements differ, the first at 1: 2.5 (expected 2)");
  actual.values = {1.0f, 2.0f, 3.0f};
  EXPECT_EQ(output_mismatch(expected, actual), std::nullopt);
  actual.shape = {1, 3};
  EXPECT_EQ(output_mismatch(expected, actual), "shape [1,3] (expected [3])");
}

}  // namespace
}  // namespace polyarch::onnx_conformance
