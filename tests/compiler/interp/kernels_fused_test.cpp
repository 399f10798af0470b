// The fused kernels against the unfused ones they replace: attention in both layouts, causal
// with fewer queries than keys (a decode step), GQA, fully masked rows, and activations.
#include "compiler/interp/kernels_fused.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "base/random_draw.h"
#include "compiler/interp/kernels.h"
#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::interp {
namespace {

DenseTensor random_tensor(Shape shape, unsigned seed) {
  DenseTensor tensor = filled_tensor(std::move(shape));
  std::mt19937 generator(seed);
  auto uniform = [&](auto& engine) {
    return static_cast<float>(polyarch::random_real(engine, -1.0f, 1.0f));
  };
  for (float& value : tensor.values) value = uniform(generator);
  return tensor;
}

// softmax(Q K^T * scale + mask) V with the matmul, elementwise and softmax kernels, K and V
// repeated to h heads.
DenseTensor reference(const DenseTensor& q, const DenseTensor& k, const DenseTensor& v,
                      const DenseTensor& mask, int64_t group, float scale) {
  const auto repeat = [group](const DenseTensor& kv) {
    DenseTensor wide = kv;
    wide.shape[1] *= group;
    wide.values.clear();
    const int64_t per_head = kv.shape[2] * kv.shape[3];
    for (int64_t b = 0; b < kv.shape[0]; ++b) {
      for (int64_t head = 0; head < kv.shape[1] * group; ++head) {
        const auto* start = kv.values.data() + (b * kv.shape[1] + head / group) * per_head;
        wide.values.insert(wide.values.end(), start, start + per_head);
      }
    }
    return wide;
  };
  const DenseTensor keys = transpose(repeat(k), {0, 1, 3, 2});
  DenseTensor scores = matmul(q, keys);
  DenseTensor factor = filled_tensor({}, scale);
  scores = elementwise("mul", {&scores, &factor}, scores.shape, ir::DType::kFp32, nullptr);
  scores = elementwise("add", {&scores, &mask}, scores.shape, ir::DType::kFp32, nullptr);
  return matmul(softmax(scores, 3, false), repeat(v));
}

TEST(AttentionKernel, CausalGqaDecodeMatchesTheUnfusedKernels) {
  ir::AttentionAttrs attrs{
      .b = 2, .h = 4, .kv_heads = 2, .s = 3, .kv_len = 5, .d = 8, .causal = true};
  const DenseTensor q = random_tensor({2, 4, 3, 8}, 1);
  const DenseTensor k = random_tensor({2, 2, 5, 8}, 2);
  const DenseTensor v = random_tensor({2, 2, 5, 8}, 3);
  // The causal mask as the unfused graph adds it: query i sees keys j <= i + 5 - 3.
  DenseTensor mask = filled_tensor({1, 1, 3, 5});
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 5; ++j) {
      if (j > i + 2) mask.values[i * 5 + j] = -std::numeric_limits<float>::infinity();
    }
  }
  const float scale = 1.0f / std::sqrt(8.0f);
  const DenseTensor fused = attention(q, k, v, nullptr, attrs, scale, false);
  const DenseTensor expected = reference(q, k, v, mask, 2, scale);
  ASSERT_EQ(fused.values.size(), expected.values.size());
  for (std::size_t i = 0; i < expected.values.size(); ++i) {
    EXPECT_NEAR(fused.values[i], expected.values[i], 1e-6) << i;
  }
}

// A sliding window, causal and centred, against the unfused kernels with the window written out
// as a mask: query i at position p = i + 7 - 4 sees keys p - 2 .. p (causal, window 3) or
// p - 1 .. p + 2 (centred, window 4).
TEST(AttentionKernel, SlidingWindowsMatchTheUnfusedKernelsWithTheBandAsAMask) {
  for (const bool causal : {true, false}) {
    ir::AttentionAttrs attrs{.b = 1, .h = 2, .kv_heads = 1, .s = 4, .kv_len = 7, .d = 8,
                             .causal = causal, .window = causal ? 3 : 4};
    const DenseTensor q = random_tensor({1, 2, 4, 8}, 4);
    const DenseTensor k = random_tensor({1, 1, 7, 8}, 5);
    const DenseTensor v = random_tensor({1, 1, 7, 8}, 6);
    DenseTensor mask = filled_tensor({1, 1, 4, 7});
    for (int64_t i = 0; i < 4; ++i) {
      const int64_t p = i + 3;
      for (int64_t j = 0; j < 7; ++j) {
        const bool visible = causal ? (j <= p && j >= p - 2) : (j >= p - 1 && j <= p + 2);
        if (!visible) mask.values[i * 7 + j] = -std::numeric_limits<float>::infinity();
      }
    }
    const float scale = 1.0f / std::sqrt(8.0f);
    const DenseTensor fused = attention(q, k, v, nullptr, attrs, scale, false);
    const DenseTensor expected = reference(q, k, v, mask, 2, scale);
    ASSERT_EQ(fused.values.size(), expected.values.size());
    for (std::size_t i = 0; i < expected.values.size(); ++i) {
      EXPECT_NEAR(fused.values[i], expected.values[i], 1e-6) << "causal=" << causal << " " << i;
    }
  }
}

TEST(AttentionKernel, SequenceLayoutIsTheHeadLayoutTransposed) {
  ir::AttentionAttrs attrs{.b = 1, .h = 2, .kv_heads = 2, .s = 4, .kv_len = 4, .d = 4};
  const DenseTensor q = random_tensor({1, 4, 2, 4}, 4);  // [b, s, h, d] = [b, s, h*d]
  const DenseTensor k = random_tensor({1, 4, 2, 4}, 5);
  const DenseTensor v = random_tensor({1, 4, 2, 4}, 6);
  const std::vector<int64_t> to_heads = {0, 2, 1, 3};
  const DenseTensor heads = attention(transpose(q, to_heads), transpose(k, to_heads),
                                      transpose(v, to_heads), nullptr, attrs, 0.5f, false);
  const DenseTensor sequence = attention(q, k, v, nullptr, attrs, 0.5f, true);
  EXPECT_EQ(transpose(heads, to_heads).values, sequence.values);
}

TEST(AttentionKernel, AFullyMaskedRowGivesZeros) {
  ir::AttentionAttrs attrs{.b = 1, .h = 1, .kv_heads = 1, .s = 2, .kv_len = 2, .d = 2};
  const DenseTensor q = random_tensor({1, 1, 2, 2}, 7);
  const DenseTensor kv = random_tensor({1, 1, 2, 2}, 8);
  DenseTensor mask = filled_tensor({1, 1, 2, 2}, -std::numeric_limits<float>::infinity());
  mask.values[2] = 0.0f;  // query 1 sees key 0; query 0 sees nothing
  const DenseTensor result = attention(q, kv, kv, &mask, attrs, 1.0f, false);
  EXPECT_EQ(result.values[0], 0.0f);
  EXPECT_EQ(result.values[1], 0.0f);
  EXPECT_FLOAT_EQ(result.values[2], kv.values[0]);
  EXPECT_FLOAT_EQ(result.values[3], kv.values[1]);
}

TEST(FusedActivation, ClipBoundsAndTanhGeluComeFromTheParameters) {
  DenseTensor x = filled_tensor({3});
  x.values = {-1.0f, 3.0f, 9.0f};
  const DenseTensor clipped = apply_activation(x, {"clip", {{"min", 0.0}, {"max", 6.0}}});
  EXPECT_EQ(clipped.values, (std::vector<float>{0.0f, 3.0f, 6.0f}));
  const DenseTensor erf_form = apply_activation(x, {"gelu", {}});
  const DenseTensor tanh_form = apply_activation(x, {"gelu", {{"approximate_tanh", 1.0}}});
  EXPECT_NEAR(erf_form.values[0], -0.158655f, 1e-6);
  EXPECT_NEAR(tanh_form.values[0], -0.158808f, 1e-6);  // the tanh approximation's own value
}

// A block-sparse layout against a brute-force softmax over the visible keys only, written here:
// 3 queries at positions 4..6 of 7 (a partial last block) in blocks of 2, GQA (4 query heads, 2
// KV heads), causal. The layout's rows are position blocks 2 and 3; row 2 (positions 4, 5) sees
// key blocks 0 and 2, row 3 (position 6) none: its query gives zeros.
TEST(AttentionKernel, BlockSparseLayoutMatchesABruteForceMaskedSoftmax) {
  ir::AttentionAttrs attrs{
      .b = 1, .h = 4, .kv_heads = 2, .s = 3, .kv_len = 7, .d = 4, .causal = true};
  attrs.block_sparse = std::make_shared<const ir::BlockSparseLayout>(
      ir::explicit_layout(2, 3, 7, {1, 0, 1, 0, /* row 3 */ 0, 0, 0, 0}));
  // Which keys each query sees, by hand: position 4 sees 0, 1, 4; position 5 sees 0, 1, 4, 5.
  const std::vector<std::vector<int64_t>> seen = {{0, 1, 4}, {0, 1, 4, 5}, {}};
  const DenseTensor q = random_tensor({1, 4, 3, 4}, 4);
  const DenseTensor k = random_tensor({1, 2, 7, 4}, 5);
  const DenseTensor v = random_tensor({1, 2, 7, 4}, 6);
  const float scale = 0.5f;
  const DenseTensor fused = attention(q, k, v, nullptr, attrs, scale, false);
  for (int64_t head = 0; head < 4; ++head) {
    const int64_t kv_head = head / 2;
    for (int64_t i = 0; i < 3; ++i) {
      const float* query = &q.values[(head * 3 + i) * 4];
      std::vector<double> weights;
      for (int64_t key : seen[i]) {
        double dot = 0.0;
        for (int64_t e = 0; e < 4; ++e) dot += query[e] * k.values[(kv_head * 7 + key) * 4 + e];
        weights.push_back(std::exp(dot * scale));
      }
      double sum = 0.0;
      for (double weight : weights) sum += weight;
      for (int64_t e = 0; e < 4; ++e) {
        double expected = 0.0;
        for (std::size_t n = 0; n < seen[i].size(); ++n) {
          expected += weights[n] / sum * v.values[(kv_head * 7 + seen[i][n]) * 4 + e];
        }
        EXPECT_NEAR(fused.values[(head * 3 + i) * 4 + e], expected, 1e-5)
            << "head " << head << " query " << i << " element " << e;
      }
    }
  }
}

}  // namespace
}  // namespace polyarch::interp
