// Rearranging kernels on small tensors whose results are worked out by hand from ONNX's
// definitions.
#include <gtest/gtest.h>

#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {
namespace {

using Values = std::vector<float>;

// Eight channels of one pixel, blocksize 2, so two output channels of 2x2. DCR reads channel
// (b1*2 + b2)*2 + c for output channel c at (b1, b2); CRD reads c*4 + b1*2 + b2.
TEST(RearrangeKernels, DepthToSpaceInBothChannelOrders) {
  const DenseTensor x{{1, 8, 1, 1}, {0, 1, 2, 3, 4, 5, 6, 7}};
  const DenseTensor dcr = depth_to_space(x, 2, false);
  EXPECT_EQ(dcr.shape, (Shape{1, 2, 2, 2}));
  EXPECT_EQ(dcr.values, (Values{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(depth_to_space(x, 2, true).values, (Values{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(RearrangeKernels, SpaceToDepthStacksEachBlockIntoChannels) {
  const DenseTensor x{{1, 1, 2, 4}, {0, 1, 2, 3, 4, 5, 6, 7}};
  const DenseTensor result = space_to_depth(x, 2);
  EXPECT_EQ(result.shape, (Shape{1, 4, 1, 2}));
  // Channel (b1*2 + b2) holds the pixels at (b1, 2*w + b2).
  EXPECT_EQ(result.values, (Values{0, 2, 1, 3, 4, 6, 5, 7}));
}

TEST(RearrangeKernels, TileRepeatsAlongEachAxis) {
  const DenseTensor x{{1, 2}, {1, 2}};
  const DenseTensor result = tile(x, {2, 2});
  EXPECT_EQ(result.shape, (Shape{2, 4}));
  EXPECT_EQ(result.values, (Values{1, 2, 1, 2, 1, 2, 1, 2}));
}

TEST(RearrangeKernels, PadConstantReflectEdgeAndCrop) {
  const DenseTensor x{{3}, {1, 2, 3}};
  EXPECT_EQ(pad(x, {1, 2}, "constant", 9).values, (Values{9, 1, 2, 3, 9, 9}));
  EXPECT_EQ(pad(x, {2, 2}, "reflect", 0).values, (Values{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(pad(x, {2, 1}, "edge", 0).values, (Values{1, 1, 1, 2, 3, 3}));
  EXPECT_EQ(pad(x, {-1, 0}, "constant", 0).values, (Values{2, 3}));
  const DenseTensor matrix{{2, 2}, {1, 2, 3, 4}};
  EXPECT_EQ(pad(matrix, {1, 0, 0, 1}, "constant", 0).values, (Values{0, 0, 0, 1, 2, 0, 3, 4, 0}));
}

}  // namespace
}  // namespace polyarch::interp
