#include "compiler/ir/tensor.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace polyarch::ir {
namespace {

TEST(Tensor, ElementCountOfAScalarIsOne) {
  EXPECT_EQ(element_count({}), 1);
  EXPECT_EQ(element_count({2, 3, 4}), 24);
  EXPECT_EQ(element_count({5, 0}), 0);
  EXPECT_THROW(element_count({int64_t{1} << 40, int64_t{1} << 40}), Error);
}

TEST(Tensor, ShapeIsKnownWhenNonEmptyOrScalar) {
  Tensor unknown;
  EXPECT_FALSE(unknown.shape_known());
  Tensor scalar;
  scalar.scalar = true;
  EXPECT_TRUE(scalar.shape_known());
  Tensor vector{"v", {3}, DType::kFp32, TensorRole::kWeight};
  EXPECT_TRUE(vector.shape_known());
  EXPECT_FALSE(vector.has_data());
  vector.data = std::make_shared<const std::vector<std::byte>>(12);
  EXPECT_TRUE(vector.has_data());
}

}  // namespace
}  // namespace polyarch::ir
