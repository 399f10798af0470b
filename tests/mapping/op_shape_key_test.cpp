// The op part of a decision-cache key tells apart ops that a cost model prices differently.
#include "mapping/cache/op_shape_key.h"

#include <gtest/gtest.h>

namespace polyarch::mapping {
namespace {

ir::Op gemm() {
  ir::Op op;
  op.name = "g";
  op.attrs = ir::GemmAttrs{.m = 64, .n = 128, .k = 256, .batch = 1, .b_shared = true};
  return op;
}

TEST(OpShapeKey, TheNameIsNotPartOfIt) {
  ir::Op renamed = gemm();
  renamed.name = "other";
  EXPECT_EQ(op_shape_key(gemm(), ir::DType::kBf16), op_shape_key(renamed, ir::DType::kBf16));
}

TEST(OpShapeKey, SparseWeightsAreAnotherKey) {
  ir::Op pruned = gemm();
  pruned.weight_sparsity = ir::WeightSparsity{.density = 0.5, .n = 2, .m = 4};
  ir::Op unstructured = gemm();
  unstructured.weight_sparsity = ir::WeightSparsity{.density = 0.5};
  const std::string dense = op_shape_key(gemm(), ir::DType::kBf16);
  EXPECT_NE(dense, op_shape_key(pruned, ir::DType::kBf16));
  EXPECT_NE(dense, op_shape_key(unstructured, ir::DType::kBf16));
  EXPECT_NE(op_shape_key(pruned, ir::DType::kBf16),
            op_shape_key(unstructured, ir::DType::kBf16));
}

TEST(OpShapeKey, ASignedInputIsAnotherKey) {
  ir::Op signed_op = gemm();
  signed_op.signed_input = true;
  ir::Op unsigned_op = gemm();
  unsigned_op.signed_input = false;
  EXPECT_NE(op_shape_key(signed_op, ir::DType::kInt8), op_shape_key(unsigned_op, ir::DType::kInt8));
  EXPECT_NE(op_shape_key(signed_op, ir::DType::kInt8), op_shape_key(gemm(), ir::DType::kInt8));
}

}  // namespace
}  // namespace polyarch::mapping
