// Pooling, normalisation, softmax and reductions on hand-computed examples.
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/interp/kernels.h"

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

}  // namespace
}  // namespace polyarch::interp
