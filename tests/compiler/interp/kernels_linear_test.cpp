// Matrix products and convolution on hand-computed examples.
#include <gtest/gtest.h>

#include "compiler/interp/kernels.h"

namespace polyarch::interp {
namespace {

TEST(GemmKernel, TransposedOperandsAlphaAndBroadcastBias) {
  const DenseTensor a{{3, 2}, {1, 4, 2, 5, 3, 6}};  // A^T = [[1,2,3],[4,5,6]]
  const DenseTensor b{{2, 3}, {1, 0, 1, 0, 1, 1}};  // B^T = [[1,0],[0,1],[1,1]]
  const DenseTensor bias{{2}, {10, 20}};
  GemmOptions options;
  options.trans_a = true;
  options.trans_b = true;
  options.alpha = 2.0f;
  options.beta = 0.5f;
  const DenseTensor c = gemm(a, b, &bias, options);
  EXPECT_EQ(c.shape, (Shape{2, 2}));
  // A^T B^T = [[4, 5], [10, 11]]; 2x that plus half the bias row.
  EXPECT_EQ(c.values, (std::vector<float>{13, 20, 25, 32}));
}

TEST(MatmulKernel, BroadcastsBatchAxesAndPromotesVectors) {
  const DenseTensor a{{2, 1, 2}, {1, 2, 3, 4}};
  const DenseTensor b{{2, 1}, {10, 100}};
  const DenseTensor c = matmul(a, b);
  EXPECT_EQ(c.shape, (Shape{2, 1, 1}));
  EXPECT_EQ(c.values, (std::vector<float>{210, 430}));
  const DenseTensor v = matmul(DenseTensor{{2}, {1, 2}}, DenseTensor{{2, 2}, {1, 2, 3, 4}});
  EXPECT_EQ(v.shape, (Shape{2}));
  EXPECT_EQ(v.values, (std::vector<float>{7, 10}));
}

TEST(Conv2dKernel, PaddingStrideAndBias) {
  // 1x1x3x3 input, one 2x2 filter of ones, pad 1, stride 2: the corners of the padded sums.
  const DenseTensor input{{1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  const DenseTensor weight{{1, 1, 2, 2}, {1, 1, 1, 1}};
  const DenseTensor bias{{1}, {100}};
  ir::Conv2dAttrs attrs;
  attrs.c = 1;
  attrs.h = attrs.w = 3;
  attrs.k = 1;
  attrs.r = attrs.s = 2;
  attrs.stride_h = attrs.stride_w = 2;
  attrs.pad_h = attrs.pad_w = 1;
  const DenseTensor out = conv2d(input, weight, &bias, attrs);
  EXPECT_EQ(out.shape, (Shape{1, 1, 2, 2}));
  EXPECT_EQ(out.values, (std::vector<float>{101, 105, 111, 128}));
}

TEST(Conv2dKernel, DilationSpreadsTheTapsWithoutAddingAny) {
  // 1x1x5x5 input of 1..25, one 2x2 filter (1, 10, 100, 1000), dilation 2, pad 1: the window
  // spans 3x3, so the output stays 5x5, and output (y, x) reads input rows y-1 and y+1 and
  // columns x-1 and x+1.
  std::vector<float> plane(25);
  for (std::size_t i = 0; i < plane.size(); ++i) plane[i] = static_cast<float>(i + 1);
  const DenseTensor input{{1, 1, 5, 5}, plane};
  const DenseTensor weight{{1, 1, 2, 2}, {1, 10, 100, 1000}};
  ir::Conv2dAttrs attrs;
  attrs.c = attrs.k = 1;
  attrs.h = attrs.w = 5;
  attrs.r = attrs.s = 2;
  attrs.pad_h = attrs.pad_w = 1;
  attrs.dilation_h = attrs.dilation_w = 2;
  const DenseTensor out = conv2d(input, weight, nullptr, attrs);
  EXPECT_EQ(out.shape, (Shape{1, 1, 5, 5}));
  // (0, 0): only input (1, 1) = 7 is inside, at the last tap. (0, 4): only (1, 3) = 9, at the
  // third. (2, 2): (1, 1) = 7, (1, 3) = 9, (3, 1) = 17 and (3, 3) = 19, one at each tap.
  EXPECT_EQ(out.values[0], 7000);
  EXPECT_EQ(out.values[4], 900);
  EXPECT_EQ(out.values[12], 7 + 90 + 1700 + 19000);
}

TEST(Conv2dKernel, DepthwiseGroupsReadTheirOwnChannel) {
  const DenseTensor input{{1, 2, 1, 1}, {3, 5}};
  const DenseTensor weight{{2, 1, 1, 1}, {2, 10}};
  ir::Conv2dAttrs attrs;
  attrs.c = attrs.k = attrs.groups = 2;
  attrs.h = attrs.w = attrs.r = attrs.s = 1;
  EXPECT_EQ(conv2d(input, weight, nullptr, attrs).values, (std::vector<float>{6, 50}));
}

}  // namespace
}  // namespace polyarch::interp
