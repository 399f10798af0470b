// Which K stepping a convolution's channel row gets (conv_k_steps.h), by the byte rules of the
// library kernels it follows: TMA rows are whole 16-byte units, cp.async copies 4, 8 or 16
// bytes.
#include "archs/simd/conv_k_steps.h"

#include <gtest/gtest.h>

#include <variant>

#include "tests/support/ir_builders.h"

namespace polyarch::archs::simd {
namespace {

ir::Op conv(int64_t c, int64_t r, int64_t s, int64_t groups = 1) {
  return test_support::make_op("conv", ir::Conv2dAttrs{.n = 1,
                                                       .c = c,
                                                       .h = 56,
                                                       .w = 56,
                                                       .k = 64,
                                                       .r = r,
                                                       .s = s,
                                                       .pad_h = r / 2,
                                                       .pad_w = s / 2,
                                                       .groups = groups});
}

TEST(SimdConvKSteps, AThreeChannelBf16StemStepsItsFortyNineTapsOnTheSynchronousMma) {
  // 3 x 2 bytes = 6: neither a TMA row (16) nor an async copy (4).
  const ConvKSteps steps = conv_k_steps(conv(3, 7, 7), 2);
  EXPECT_EQ(steps.taps, 49);
  EXPECT_TRUE(steps.sync_engine);
  // CUDA-core kernels use the same iterators.
  EXPECT_EQ(steps.lane_taps, 49);
}

TEST(SimdConvKSteps, ADepthwiseConvolutionRunsDirectOnTheLanes) {
  // 32 channels in 32 groups: one 2-byte channel per group, a 3x3 tap row.
  const ConvKSteps steps = conv_k_steps(conv(32, 3, 3, 32), 2);
  EXPECT_EQ(steps.taps, 9);
  EXPECT_EQ(steps.lane_taps, 1);
}

TEST(SimdConvKSteps, SixtyFourBf16ChannelsAreATmaRowSteppedTapByTapAtTheFullRate) {
  const ConvKSteps steps = conv_k_steps(conv(64, 3, 3), 2);
  EXPECT_EQ(steps.taps, 9);
  EXPECT_FALSE(steps.sync_engine);
}

TEST(SimdConvKSteps, FourBf16ChannelsArePackedByTheFewChannelsIterator) {
  // 8 bytes: an async copy, not a TMA row.
  const ConvKSteps steps = conv_k_steps(conv(4, 7, 7), 2);
  EXPECT_EQ(steps.taps, 1);
  EXPECT_EQ(steps.lane_taps, 1);
  EXPECT_TRUE(steps.sync_engine);
}

TEST(SimdConvKSteps, TheRowIsOneGroupsChannels) {
  // 64 channels in 32 groups: 2 per group, 4 bytes in bf16, packed.
  EXPECT_EQ(conv_k_steps(conv(64, 3, 3, 32), 2).taps, 1);
  // The same 3 channels in fp8 (3 bytes) step tap by tap; 16 fp8 channels are a TMA row.
  EXPECT_EQ(conv_k_steps(conv(3, 3, 3), 1).taps, 9);
  EXPECT_FALSE(conv_k_steps(conv(16, 3, 3), 1).sync_engine);
}

// Stride and dilation move the taps' pixels, not how many taps K holds; a 1x1 filter has one
// tap, so K is one run whatever the row, and only the row's bytes pick the engine's path.
TEST(SimdConvKSteps, TapsAreTheFiltersPositionsWhateverTheStrideAndDilation) {
  ir::Op dilated = conv(64, 3, 3);
  auto& attrs = std::get<ir::Conv2dAttrs>(dilated.attrs);
  attrs.stride_h = attrs.stride_w = 2;
  attrs.dilation_h = attrs.dilation_w = 2;
  EXPECT_EQ(conv_k_steps(dilated, 2).taps, 9);
  const ConvKSteps pointwise = conv_k_steps(conv(3, 1, 1), 2);
  EXPECT_EQ(pointwise.taps, 1);
  EXPECT_EQ(pointwise.lane_taps, 1);
  EXPECT_TRUE(pointwise.sync_engine);  // a 6-byte row still has no TMA or async copy
  EXPECT_FALSE(conv_k_steps(conv(64, 1, 1), 2).sync_engine);
}

TEST(SimdConvKSteps, AGemmIsOneContiguousRunOnTheFullRate) {
  const ConvKSteps steps =
      conv_k_steps(test_support::make_op("gemm", ir::GemmAttrs{.m = 64, .n = 64, .k = 147}), 2);
  EXPECT_EQ(steps.taps, 1);
  EXPECT_FALSE(steps.sync_engine);
}

}  // namespace
}  // namespace polyarch::archs::simd
