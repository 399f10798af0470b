// A convolution's implicit GEMM stepped tap by tap (gemm_mapper.h, README.md "GEMM and
// convolution"), checked against hand counts on the shipped h100_like: ResNet-50's 3-channel
// 7x7 stem at batch 32 (M = 32 x 112 x 112 output pixels, N = 64 filters, K = 7 x 7 x 3 = 147)
// and a 64-channel 3x3 layer.
#include "archs/simd/gemm_mapper.h"

#include <gtest/gtest.h>

#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd::test {
namespace {

constexpr int64_t kStemM = 32 * 112 * 112;  // 401408

// The input is read once: about one channel row per output pixel.
GemmProblem bf16_conv(int64_t m, int64_t n, int64_t taps, int64_t channels, bool sync) {
  GemmProblem problem = dense_problem(m, n, taps * channels, ir::DType::kBf16);
  problem.a_bytes = m * channels * 2;
  problem.k_taps = taps;
  problem.lane_k_taps = taps;
  problem.sync_engine = sync;
  return problem;
}

SimdParams h100() { return simd_params_of(load_shipped("h100_like.yaml")); }

// The run of middle K steps of the first block of waves (its longest run).
KernelStep middle_step(const KernelPlan& plan) {
  const StepRun* longest = &plan.blocks.front().runs.front();
  for (const StepRun& run : plan.blocks.front().runs) {
    if (run.count > longest->count) longest = &run;
  }
  return longest->tile;
}

TEST(SimdGemmMapper, TheStemRunsFortyNineSlicesOfThirtyTwoChannelsForItsThree) {
  const GemmProblem stem = bf16_conv(kStemM, 64, 49, 3, true);
  const std::optional<KernelPlan> plan =
      plan_gemm_tiling(h100(), stem, {.bm = 128, .bn = 64, .bk = 32, .split_k = 1});
  ASSERT_TRUE(plan.has_value());
  // Useful MACs: 401408 x 64 x 147; the engine runs 49 slices of 32: 401408 x 64 x 1568.
  EXPECT_EQ(plan->macs, int64_t{401408} * 64 * 147);
  EXPECT_EQ(plan->matrix_macs.at(ir::DType::kBf16), int64_t{401408} * 64 * 1568);
  // 3136 tiles of 128 rows over 132 SMs: 24 waves of 49 slices.
  EXPECT_EQ(plan->step_count(), 24 * 49);
  // A slice is staged as (128 + 64) x 32 bf16 = 12288 bytes, fill included; L2 sends only its
  // 3 channels: (128 + 64) x 3 x 2 = 1152 bytes.
  EXPECT_EQ(plan->scratchpad_bytes, int64_t{3136} * 49 * 12288);
  EXPECT_EQ(plan->l2_bytes, int64_t{3136} * 49 * 1152);
  // On the synchronous MMA (4 x 339 MACs per cycle): 128 x 64 x 32 / 1356 = 193.3 cycles.
  const KernelStep step = middle_step(*plan);
  EXPECT_EQ(step.cycles, 194);
  EXPECT_EQ(step.bound, Bound::kMatrix);
}

TEST(SimdGemmMapper, TheSynchronousMmaTakesNoSliceNarrowerThanTwoOfItsKSteps) {
  // 16 bf16 = 32 bytes is one mma.sync m16n8k16: the multistage mainloop needs two.
  const GemmProblem stem = bf16_conv(kStemM, 64, 49, 3, true);
  EXPECT_FALSE(plan_gemm_tiling(h100(), stem, {.bm = 128, .bn = 64, .bk = 16}).has_value());
  // Loaded by TMA on the warpgroup MMA, one 16-wide slice per tap is a real tiling, at the
  // full 2048 MACs per cycle: 128 x 64 x 16 / 2048 = 64 cycles of engine time.
  const GemmProblem tma = bf16_conv(kStemM, 64, 49, 3, false);
  const std::optional<KernelPlan> plan =
      plan_gemm_tiling(h100(), tma, {.bm = 128, .bn = 64, .bk = 16});
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->matrix_macs.at(ir::DType::kBf16), int64_t{401408} * 64 * 49 * 16);
}

TEST(SimdGemmMapper, TheLanesStepTheStemsTapsInSlicesOfSixteen) {
  // On the lanes a 32-byte slice is 16 bf16 channels: 49 x 16 of K, at 128 lanes x 2 packed
  // bf16 = 256 MACs per cycle: 128 x 64 x 16 / 256 = 512 cycles a slice.
  const GemmProblem stem = bf16_conv(kStemM, 64, 49, 3, true);
  const std::optional<KernelPlan> plan = plan_gemm_tiling(
      h100(), stem, {.bm = 128, .bn = 64, .bk = 16, .split_k = 1, .matrix_engine = false});
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->vector_ops.at(ir::DType::kBf16), int64_t{401408} * 64 * 49 * 16);
  EXPECT_EQ(middle_step(*plan).cycles, 512);
  // A depthwise layer (lane_k_taps = 1) slices its 9 taps as one K of 9.
  GemmProblem depthwise = bf16_conv(kStemM, 1, 9, 1, true);
  depthwise.lane_k_taps = 1;
  const std::optional<KernelPlan> direct = plan_gemm_tiling(
      h100(), depthwise, {.bm = 128, .bn = 16, .bk = 16, .split_k = 1, .matrix_engine = false});
  ASSERT_TRUE(direct.has_value());
  EXPECT_EQ(direct->step_count(), (kStemM / 128 + 131) / 132);
}

TEST(SimdGemmMapper, SixtyFourChannelsInSlicesOfSixtyFourPadNothing) {
  // 32 x 56 x 56 pixels, 64 filters, 3x3 taps of 64 channels: K = 576 in 9 exact slices.
  const int64_t m = 32 * 56 * 56;
  const GemmProblem layer = bf16_conv(m, 64, 9, 64, false);
  const std::optional<KernelPlan> plan =
      plan_gemm_tiling(h100(), layer, {.bm = 128, .bn = 64, .bk = 64});
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->matrix_macs.at(ir::DType::kBf16), m * 64 * 576);
  EXPECT_EQ(plan->l2_bytes, plan->scratchpad_bytes);
  EXPECT_EQ(plan->step_count(), (m / 128 + 131) / 132 * 9);
}

TEST(SimdGemmMapper, SplitKSharesOutTheTapSlices) {
  // 49 slices in 4 splits: 13 per split (the last split gets 10).
  const GemmProblem stem = bf16_conv(kStemM, 64, 49, 3, true);
  const std::optional<KernelPlan> plan =
      plan_gemm_tiling(h100(), stem, {.bm = 128, .bn = 64, .bk = 32, .split_k = 4});
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->mapping.at("tiles").get<int64_t>(), 3136 * 4);
  // 12544 tiles over 132 SMs: 96 waves of 13 slices, then the reduction step.
  EXPECT_EQ(plan->step_count(), 96 * 13 + 1);
  // Two taps of 3 channels are two slices: a third split would have none.
  EXPECT_FALSE(plan_gemm_tiling(h100(), bf16_conv(kStemM, 64, 2, 3, true),
                                {.bm = 128, .bn = 64, .bk = 32, .split_k = 3})
                   .has_value());
  // Five slices in 4 splits of ceil(5 / 4) = 2 leave the fourth none (2 + 2 + 1 + 0); in 3
  // splits each has one (2 + 2 + 1).
  const GemmProblem five_taps = bf16_conv(kStemM, 64, 5, 3, true);
  EXPECT_FALSE(plan_gemm_tiling(h100(), five_taps, {.bm = 128, .bn = 64, .bk = 32, .split_k = 4})
                   .has_value());
  EXPECT_TRUE(plan_gemm_tiling(h100(), five_taps, {.bm = 128, .bn = 64, .bk = 32, .split_k = 3})
                  .has_value());
}

}  // namespace
}  // namespace polyarch::archs::simd::test
