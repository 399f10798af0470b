// MACs, FLOPs and bytes touched of each canonical op kind, and their validation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/ir/op_text.h"
#include "tests/base/error_capture.h"

namespace polyarch::ir {
namespace {

using ::testing::HasSubstr;

Op op_of(OpAttrs attrs, std::optional<DType> dtype = DType::kFp32) {
  Op op;
  op.name = "op";
  op.attrs = std::move(attrs);
  op.dtype = dtype;
  return op;
}

TEST(OpCosts, GemmBytesDependOnWhetherBIsShared) {
  GemmAttrs gemm{.m = 128, .n = 768, .k = 768, .batch = 1, .b_shared = true, .bias = true};
  const Op shared = op_of(gemm);
  EXPECT_EQ(flop_count(shared), 2 * mac_count(shared) + 128 * 768);
  EXPECT_EQ(bytes_touched(shared), 4 * (128 * 768 + 768 * 768 + 768 + 128 * 768));
  GemmAttrs scores{.m = 128, .n = 128, .k = 64, .batch = 12, .b_shared = false, .bias = false};
  EXPECT_EQ(bytes_touched(op_of(scores)), 4 * 12 * (128 * 64 + 64 * 128 + 128 * 128));
}

TEST(OpCosts, ConvBiasAddsOneFlopPerOutput) {
  Conv2dAttrs conv{.n = 1,
                   .c = 3,
                   .h = 32,
                   .w = 32,
                   .k = 16,
                   .r = 3,
                   .s = 3,
                   .stride_h = 1,
                   .stride_w = 1,
                   .pad_h = 1,
                   .pad_w = 1,
                   .groups = 1,
                   .bias = true};
  const Op op = op_of(conv, DType::kInt8);
  EXPECT_EQ(mac_count(op), int64_t{16} * 32 * 32 * 27);
  EXPECT_EQ(flop_count(op), 2 * mac_count(op) + 16 * 32 * 32);
  EXPECT_EQ(bytes_touched(op), 3 * 32 * 32 + 16 * 27 + 16 + 16 * 32 * 32);
}

TEST(OpCosts, AttentionCountsBothProductsAndGqaSharesKeysAndValues) {
  AttentionAttrs attention{
      .b = 1, .h = 32, .kv_heads = 8, .s = 128, .kv_len = 1024, .d = 128, .causal = true};
  const Op op = op_of(attention, DType::kFp16);
  // Causal, 128 queries at the end of 1024 keys: query i sees 896 + i + 1 keys.
  const int64_t visible = int64_t{128} * 896 + 128 * 129 / 2;
  EXPECT_EQ(mac_count(op), int64_t{2} * 32 * visible * 128);
  EXPECT_EQ(flop_count(op), 2 * mac_count(op) + 6 * int64_t{32} * visible);
  const int64_t queries = int64_t{32} * 128 * 128;
  const int64_t keys = int64_t{8} * 1024 * 128;
  EXPECT_EQ(bytes_touched(op), 2 * (queries + 2 * keys + queries));
}

TEST(OpCosts, AWindowedDecodeReadsOnlyItsWindowOfTheCache) {
  // One query at position 8191 of 8192 with a causal window of 1024 keys: it reads keys
  // 7168..8191 of each of the 8 KV heads, K and V, not the 8192 cached; an fp8 cache half as
  // many bytes again.
  AttentionAttrs attention{.b = 2, .h = 32, .kv_heads = 8, .s = 1, .kv_len = 8192, .d = 128,
                           .causal = true, .window = 1024};
  const int64_t queries = int64_t{2} * 32 * 128;
  const int64_t window = int64_t{2} * 2 * 8 * 1024 * 128;
  EXPECT_EQ(bytes_touched(op_of(attention, DType::kBf16)), 2 * (queries + window + queries));
  attention.kv_dtype = DType::kFp8E4M3;
  EXPECT_EQ(bytes_touched(op_of(attention, DType::kBf16)), 2 * queries + window + 2 * queries);
}

TEST(OpCosts, RowOpsAndElementwise) {
  EXPECT_EQ(flop_count(op_of(ElementwiseAttrs{"add", 1000, 2})), 1000);
  EXPECT_EQ(bytes_touched(op_of(ElementwiseAttrs{"add", 1000, 2})), 4 * 3000);
  EXPECT_EQ(flop_count(op_of(SoftmaxAttrs{.rows = 10, .cols = 100})), 5 * 1000);
  EXPECT_EQ(flop_count(op_of(NormAttrs{NormKind::kLayerNorm, 10, 100})), 7 * 1000);
  EXPECT_EQ(flop_count(op_of(NormAttrs{NormKind::kRmsNorm, 10, 100})), 4 * 1000);
  EXPECT_EQ(bytes_touched(op_of(NormAttrs{NormKind::kLayerNorm, 10, 100})), 4 * (2000 + 200));
  EXPECT_EQ(flop_count(op_of(ReduceAttrs{.rows = 32, .cols = 64, .fn = "mean"})), 32 * 64);
  EXPECT_EQ(bytes_touched(op_of(ReduceAttrs{.rows = 32, .cols = 64, .fn = "mean"})),
            4 * (32 * 64 + 32));
}

TEST(OpCosts, PoolEmbeddingAndCopy) {
  PoolAttrs pool{.n = 1,
                 .c = 64,
                 .h = 112,
                 .w = 112,
                 .r = 3,
                 .s = 3,
                 .stride = 2,
                 .pad = 1,
                 .kind = PoolKind::kMax};
  EXPECT_EQ(flop_count(op_of(pool)), int64_t{64} * 56 * 56 * 9);
  EXPECT_EQ(mac_count(op_of(pool)), 0);
  const Op embedding = op_of(EmbeddingAttrs{.rows = 128, .cols = 768, .vocab = 30522});
  EXPECT_EQ(flop_count(embedding), 0);
  EXPECT_EQ(bytes_touched(embedding), 4 * 2 * 128 * 768 + 8 * 128);
  EXPECT_EQ(bytes_touched(op_of(CopyAttrs{.bytes = 1000, .is_view = false})), 2000);
  EXPECT_EQ(bytes_touched(op_of(CopyAttrs{.bytes = 1000, .is_view = true})), 0);
}

TEST(OpCosts, NativeDtypeAppliesWhenTheOpHasNone) {
  const Op op = op_of(ElementwiseAttrs{"relu", 10, 1}, std::nullopt);
  EXPECT_EQ(bytes_touched(op), 4 * 20);
  EXPECT_EQ(bytes_touched(op, DType::kInt8), 20);
}

TEST(OpCosts, KindNamesAndText) {
  EXPECT_EQ(op_kind_name(OpKind::kAttention), "attention");
  EXPECT_EQ(op_kind_name(OpKind::kCopy), "copy");
  EXPECT_EQ(op_of(SoftmaxAttrs{1, 2}).kind(), OpKind::kSoftmax);
  EXPECT_EQ(op_type_name(op_of(NormAttrs{})), "norm");
  EXPECT_EQ(op_attributes_text(AttentionAttrs{1, 12, 12, 128, 128, 64, true}),
            "b=1 h=12 kv_heads=12 s=128 kv_len=128 d=64 causal");
  EXPECT_EQ(op_attributes_text(CopyAttrs{.bytes = 8, .is_view = true}), "bytes=8 view");
}

TEST(OpValidation, NewKindsRejectBadSizes) {
  EXPECT_THAT(testing::error_text([] {
                validate_op(op_of(AttentionAttrs{1, 12, 5, 128, 128, 64, false}));
              }),
              HasSubstr("heads h=12 are not divisible by kv_heads=5"));
  EXPECT_THAT(testing::error_text([] {
                validate_op(op_of(ElementwiseAttrs{"", 4, 1}));
              }),
              HasSubstr("without a function"));
  EXPECT_THAT(testing::error_text([] {
                validate_op(op_of(SoftmaxAttrs{0, 4}));
              }),
              HasSubstr("rows must be positive"));
  PoolAttrs pool{.n = 1,
                 .c = 1,
                 .h = 2,
                 .w = 2,
                 .r = 3,
                 .s = 3,
                 .stride = 1,
                 .pad = 0,
                 .kind = PoolKind::kMax};
  EXPECT_THAT(testing::error_text([&] { validate_op(op_of(pool)); }),
              HasSubstr("window 3x3 is larger than the padded input 2x2"));
  EXPECT_NO_THROW(validate_op(op_of(EmbeddingAttrs{.rows = 1, .cols = 1, .vocab = 1})));
}

}  // namespace
}  // namespace polyarch::ir
