// Bytes of weights in a weight format and of KV caches in their own type, each derived by hand
// from the formats' widths and the scales they keep.
#include "compiler/ir/stored_operands.h"

#include <gtest/gtest.h>


namespace polyarch::ir {
namespace {

Op gemm_op(int64_t m, int64_t n, int64_t k, std::optional<WeightFormat> format) {
  Op op{"g", GemmAttrs{m, n, k}, DType::kFp16, {}};
  op.weight_format = format;
  return op;
}

TEST(StoredOperands, Int4WeightsInGroupsOf128AreHalfAByteEachPlusAnFp16ScalePerGroup) {
  const Op op = gemm_op(1, 4096, 4096, WeightFormat{DType::kInt4, 128});
  EXPECT_EQ(weight_scale_count(op), 4096 * 32);  // 32 groups of 128 along k per column
  // 4096 x 4096 / 2 bytes of codes + 131072 scales x 2 bytes.
  EXPECT_EQ(weight_storage_bytes(op, DType::kFp16), 8388608 + 262144);
}

TEST(StoredOperands, WithoutAGroupOneScalePerOutputChannel) {
  const Op op = gemm_op(1, 4096, 4096, WeightFormat{DType::kInt8, 0});
  EXPECT_EQ(weight_storage_bytes(op, DType::kFp16), 16777216 + 4096 * 2);
  // No format: the op's own type, no scales.
  EXPECT_EQ(weight_storage_bytes(gemm_op(1, 4096, 4096, std::nullopt), DType::kFp16),
            4096 * 4096 * 2);
}

TEST(StoredOperands, ConvolutionGroupsRunAlongTheFilterAndALastShortGroupHasAScale) {
  Conv2dAttrs conv;
  conv.c = 32;
  conv.h = conv.w = 8;
  conv.k = 64;
  conv.r = conv.s = 3;
  Op op{"c", conv, DType::kBf16, {}};
  op.weight_format = WeightFormat{DType::kInt4, 128};
  // 288 weights per filter: groups of 128, 128 and 32, three scales per filter.
  EXPECT_EQ(weight_scale_count(op), 64 * 3);
  EXPECT_EQ(weight_storage_bytes(op, DType::kBf16), 64 * 288 / 2 + 64 * 3 * 2);
}

TEST(StoredOperands, KvCacheBytesFollowItsTypeWithScalesOnlyForIntegers) {
  AttentionAttrs attention{1, 32, 8, 1, 1000, 128};
  const int64_t elements = 2 * 8 * 1000 * 128;
  EXPECT_EQ(kv_cache_elements(attention), elements);
  EXPECT_EQ(kv_cache_bytes(attention, DType::kBf16), elements * 2);
  attention.kv_dtype = DType::kFp8E4M3;
  EXPECT_EQ(kv_cache_bytes(attention, DType::kBf16), elements);
  attention.kv_dtype = DType::kInt8;
  EXPECT_EQ(kv_cache_bytes(attention, DType::kBf16), elements + 2 * 8 * 1000 * 2);
  attention.kv_dtype = DType::kInt4;
  EXPECT_EQ(kv_cache_bytes(attention, DType::kBf16), elements / 2 + 2 * 8 * 1000 * 2);
}

TEST(StoredOperands, BytesTouchedReadTheWeightsAndCacheAsStored) {
  // A decode GEMV: activations in and out in fp16, weights in int4 with scales.
  const Op gemv = gemm_op(1, 4096, 4096, WeightFormat{DType::kInt4, 128});
  EXPECT_EQ(bytes_touched(gemv), 4096 * 2 + 4096 * 2 + 8388608 + 262144);
  AttentionAttrs attention{1, 32, 8, 1, 1000, 128};
  attention.kv_dtype = DType::kFp8E5M2;
  const Op decode{"a", attention, DType::kBf16, {}};
  // Q in, O out in bf16; K and V as fp8.
  EXPECT_EQ(bytes_touched(decode), 2 * (32 * 128 * 2) + 2 * 8 * 1000 * 128);
}

// An fp32 model compiled with --precision bf16 keeps its fp32 values for the interpreter; stored,
// its tensors take the type their ops compute in. An integer tensor keeps its own.
TEST(StoredOperands, AFloatTensorIsStoredInTheFloatTypeItsOpsComputeIn) {
  Graph graph("g");
  const NodeId x = graph.add_tensor({"x", {4, 8}, DType::kFp32, TensorRole::kActivation});
  const NodeId w = graph.add_tensor({"w", {8, 16}, DType::kFp32, TensorRole::kWeight});
  const NodeId ids = graph.add_tensor({"ids", {4}, DType::kInt64, TensorRole::kActivation});
  Op gemm{"gemm", GemmAttrs{4, 16, 8}, DType::kBf16, {}};
  const NodeId op = graph.add_op(gemm);
  const NodeId y = graph.add_tensor({"y", {4, 16}, DType::kFp32, TensorRole::kActivation});
  graph.connect(x, op);
  graph.connect(w, op);
  graph.connect(op, y);
  const NodeId neg = graph.add_op(Op{"neg", ElementwiseAttrs{"neg", 4, 1}, DType::kFp32, {}});
  graph.connect(ids, neg);
  EXPECT_EQ(stored_tensor_bytes(graph, w), 8 * 16 * 2);
  EXPECT_EQ(stored_tensor_bytes(graph, y), 4 * 16 * 2);  // read by none: its producer's type
  EXPECT_EQ(stored_tensor_bytes(graph, ids), 4 * 8);
  // An imported Cast computes in its operand's type; its fp16 result is stored as its fp16 reader
  // computes, not as the Cast's fp32.
  const NodeId a = graph.add_tensor({"a", {64}, DType::kFp32, TensorRole::kActivation});
  const NodeId cast = graph.add_op(Op{"cast", ElementwiseAttrs{"cast", 64, 1}, DType::kFp32, {}});
  const NodeId half = graph.add_tensor({"half", {64}, DType::kFp16, TensorRole::kActivation});
  const NodeId relu = graph.add_op(Op{"relu", ElementwiseAttrs{"relu", 64, 1}, DType::kFp16, {}});
  graph.connect(a, cast);
  graph.connect(cast, half);
  graph.connect(half, relu);
  EXPECT_EQ(stored_tensor_bytes(graph, half), 64 * 2);
  EXPECT_EQ(stored_tensor_bytes(graph, a), 64 * 4);
  graph.op(op).weight_format = WeightFormat{DType::kInt4, 4};
  EXPECT_EQ(stored_tensor_bytes(graph, w), 8 * 16 / 2 + 16 * 2 * 2);  // 2 groups per column
}

}  // namespace
}  // namespace polyarch::ir
