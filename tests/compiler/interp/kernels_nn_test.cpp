// Pooling, normalisation, softmax and reductions on hand-computed examples.
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/interp/kernels.h"
#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {
namespace {

ir::PoolAttrs pool_2x2(ir::PoolKind kind, int64_t pad) {
  ir::PoolAttrs attrs;
  attrs.c = 1;
  attrs.h = attrs.w = 2;
  attrs.r = attrs.s = 2;
  attrs.stride = 2;
  attrs.pad = pad;
  attrs.kind = kind;
  return attrs;
}

TEST(PoolKernel, MaxSkipsPaddingAndAverageCountsOnlyTheInsideUnlessAsked) {
  const DenseTensor input{{1, 1, 2, 2}, {-1, -2, -3, -4}};
  // Padding 1: each output window holds one input element and three pads.
  EXPECT_EQ(pool(input, pool_2x2(ir::PoolKind::kMax, 1), false, false).values,
            (std::vector<float>{-1, -2, -3, -4}));
  EXPECT_EQ(pool(input, pool_2x2(ir::PoolKind::kAvg, 1), false, false).values,
            (std::vector<float>{-1, -2, -3, -4}));
  EXPECT_EQ(pool(input, pool_2x2(ir::PoolKind::kAvg, 1), true, false).values,
            (std::vector<float>{-0.25f, -0.5f, -0.75f, -1}));
  EXPECT_EQ(pool(input, pool_2x2(ir::PoolKind::kGlobal, 0), false, true).values,
            (std::vector<float>{-1}));
}

TEST(NormKernel, LayerNormCentresAndScalesEachRow) {
  const DenseTensor input{{2, 2}, {1, 3, 10, 10}};
  const DenseTensor scale{{2}, {1, 2}};
  const DenseTensor bias{{2}, {0, 1}};
  const DenseTensor out = norm(input, scale, &bias, ir::NormKind::kLayerNorm, 2, 1e-5f);
  EXPECT_NEAR(out.values[0], -1, 1e-4);
  EXPECT_NEAR(out.values[1], 3, 1e-4);
  // A constant row normalises to zero; epsilon keeps it from being 0/0.
  EXPECT_EQ(out.values[2], 0);
  EXPECT_EQ(out.values[3], 1);
}

TEST(NormKernel, RmsNormDividesByTheRootMeanSquare) {
  const DenseTensor out = norm(DenseTensor{{1, 2}, {3, 4}}, DenseTensor{{2}, {1, 1}}, nullptr,
                               ir::NormKind::kRmsNorm, 2, 0.0f);
  const float rms = std::sqrt(12.5f);
  EXPECT_FLOAT_EQ(out.values[0], 3 / rms);
  EXPECT_FLOAT_EQ(out.values[1], 4 / rms);
}

TEST(SoftmaxKernel, NormalisesAlongTheAxisAndLogSoftmaxIsItsLog) {
  const DenseTensor input{{2, 2}, {0, 0, 1000, 1000}};  // large values: no overflow
  EXPECT_EQ(softmax(input, 0, false).values, (std::vector<float>{0, 0, 1, 1}));
  EXPECT_EQ(softmax(input, 1, false).values, (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f}));
  EXPECT_FLOAT_EQ(softmax(input, 1, true).values[0], std::log(0.5f));
}

TEST(ReduceKernel, MeanOverChosenAxesTakesTheResultShape) {
  const DenseTensor input{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_EQ(reduce(input, {1}, "mean", {2, 1}).values, (std::vector<float>{2, 5}));
  EXPECT_EQ(reduce(input, {0}, "max", {3}).values, (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(reduce(input, {0, 1}, "sum", {}).values, (std::vector<float>{21}));
}

// [1, -2, 2]: |1| + |-2| + |2| = 5, sqrt(1 + 4 + 4) = 3, 1 + 4 + 4 = 9, log(1 - 2 + 2) = 0;
// [0, ln 3]: log(e^0 + e^ln3) = log 4.
TEST(ReduceKernel, NormsSumOfSquaresAndLogSums) {
  const DenseTensor input{{3}, {1, -2, 2}};
  EXPECT_EQ(reduce(input, {0}, "l1", {}).values, (std::vector<float>{5}));
  EXPECT_EQ(reduce(input, {0}, "l2", {}).values, (std::vector<float>{3}));
  EXPECT_EQ(reduce(input, {0}, "sumsquare", {}).values, (std::vector<float>{9}));
  EXPECT_EQ(reduce(input, {0}, "logsum", {}).values, (std::vector<float>{0}));
  const DenseTensor exponents{{2}, {0, std::log(3.0f)}};
  EXPECT_FLOAT_EQ(reduce(exponents, {0}, "logsumexp", {}).values[0], std::log(4.0f));
}

TEST(ReduceKernel, ArgMaxAndArgMinTakeTheFirstOrLastOfEqualValues) {
  const DenseTensor input{{2, 3}, {1, 3, 3, 4, 0, 4}};
  EXPECT_EQ(arg_reduce(input, 1, true, false, {2}).values, (std::vector<float>{1, 0}));
  EXPECT_EQ(arg_reduce(input, 1, true, true, {2}).values, (std::vector<float>{2, 2}));
  EXPECT_EQ(arg_reduce(input, 1, false, false, {2, 1}).values, (std::vector<float>{0, 1}));
  EXPECT_EQ(arg_reduce(input, 0, false, true, {3}).values, (std::vector<float>{0, 1, 0}));
}

// Size 3, alpha/size = 1, beta = 1, bias = 1: each channel divided by 1 + the sum of squares of
// itself and its neighbours: 1 / (1 + 1 + 4), 2 / (1 + 1 + 4 + 9), 3 / (1 + 4 + 9).
TEST(LrnKernel, DividesByTheWindowsSumOfSquares) {
  const DenseTensor x{{1, 3, 1, 1}, {1, 2, 3}};
  const DenseTensor result = lrn(x, 3, 3.0f, 1.0f, 1.0f);
  EXPECT_FLOAT_EQ(result.values[0], 1.0f / 6);
  EXPECT_FLOAT_EQ(result.values[1], 2.0f / 15);
  EXPECT_FLOAT_EQ(result.values[2], 3.0f / 14);
}

// Log-probabilities [[-1, -2, -3], [-4, -5, -6]] at targets [2, 0]: losses 3 and 4.
TEST(LossKernel, NllLossReductionsWeightsAndIgnoredTargets) {
  const DenseTensor input{{2, 3}, {-1, -2, -3, -4, -5, -6}};
  const DenseTensor target{{2}, {2, 0}};
  EXPECT_EQ(nll_loss(input, target, nullptr, "none", std::nullopt).values,
            (std::vector<float>{3, 4}));
  EXPECT_EQ(nll_loss(input, target, nullptr, "sum", std::nullopt).values, (std::vector<float>{7}));
  EXPECT_EQ(nll_loss(input, target, nullptr, "mean", std::nullopt).values,
            (std::vector<float>{3.5f}));
  // Weights [1, 2, 4]: losses 3*4 and 4*1, the mean divided by the weights 4 + 1.
  const DenseTensor weight{{3}, {1, 2, 4}};
  EXPECT_FLOAT_EQ(nll_loss(input, target, &weight, "mean", std::nullopt).values[0], 16.0f / 5);
  // Target 2 ignored: only the second counts.
  EXPECT_EQ(nll_loss(input, target, nullptr, "mean", 2).values, (std::vector<float>{4}));
  EXPECT_EQ(nll_loss(input, target, nullptr, "none", 2).values, (std::vector<float>{0, 4}));
}

// Row [1, 2, 3]: mean 2, variance 2/3, so 1 / sqrt(2/3) = sqrt(1.5).
TEST(NormKernel, LayerNormStatisticsAreTheMeanAndInverseDeviation) {
  const DenseTensor input{{1, 3}, {1, 2, 3}};
  const std::vector<DenseTensor> statistics = layer_norm_statistics(input, 3, 0.0f, {1, 1});
  EXPECT_EQ(statistics[0].values, (std::vector<float>{2}));
  EXPECT_FLOAT_EQ(statistics[1].values[0], std::sqrt(1.5f));
}

}  // namespace
}  // namespace polyarch::interp

namespace polyarch::interp {
namespace {

// Channel values 1 and 3: batch mean 2, population variance 1, so Y is -1 and 1; with momentum
// 0.9 the running mean 0 becomes 0.2 and the running variance 1 stays 1.
TEST(BatchNormKernel, TrainingModeUsesTheBatchStatistics) {
  const DenseTensor one{{1}, {1}};
  const DenseTensor zero{{1}, {0}};
  const std::vector<DenseTensor> results =
      batch_norm_training(DenseTensor{{2, 1, 1, 1}, {1, 3}}, one, zero, zero, one, 0.0, 0.9);
  EXPECT_EQ(results[0].values, (std::vector<float>{-1, 1}));
  EXPECT_FLOAT_EQ(results[1].values[0], 0.2f);
  EXPECT_FLOAT_EQ(results[2].values[0], 1.0f);
}

}  // namespace
}  // namespace polyarch::interp
