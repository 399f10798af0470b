// ConvTranspose on 1-D cases worked by hand: each input element scatters x * kernel to
// positions p*stride + q.
#include <gtest/gtest.h>

#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {
namespace {

passes::TransposedAxis axis(int64_t in, int64_t kernel, int64_t stride, int64_t pad_begin,
                            int64_t out) {
  return {in, kernel, stride, 1, pad_begin, out};
}

TEST(ConvTransposeKernel, StridesSpreadAndOverlapsAdd) {
  const DenseTensor x{{1, 1, 3}, {1, 2, 3}};
  const DenseTensor w{{1, 1, 2}, {1, 10}};
  // Stride 2: no overlap, [1, 10, 2, 20, 3, 30]; stride 1: neighbours add, [1, 12, 23, 30].
  EXPECT_EQ(conv_transpose(x, w, nullptr, 1, {axis(3, 2, 2, 0, 6)}).values,
            (std::vector<float>{1, 10, 2, 20, 3, 30}));
  EXPECT_EQ(conv_transpose(x, w, nullptr, 1, {axis(3, 2, 1, 0, 4)}).values,
            (std::vector<float>{1, 12, 23, 30}));
}

TEST(ConvTransposeKernel, PadsCropTheBeginningAndALargerOutputEndsInBias) {
  const DenseTensor x{{1, 1, 3}, {1, 2, 3}};
  const DenseTensor w{{1, 1, 2}, {1, 10}};
  const DenseTensor bias{{1}, {100}};
  EXPECT_EQ(conv_transpose(x, w, &bias, 1, {axis(3, 2, 1, 1, 4)}).values,
            (std::vector<float>{112, 123, 130, 100}));
}

// Two groups of one channel each: channel 0 uses kernel [1], channel 1 kernel [2].
TEST(ConvTransposeKernel, GroupsUseTheirOwnChannels) {
  const DenseTensor x{{1, 2, 2}, {1, 2, 3, 4}};
  const DenseTensor w{{2, 1, 1}, {1, 2}};
  EXPECT_EQ(conv_transpose(x, w, nullptr, 2, {axis(2, 1, 1, 0, 2)}).values,
            (std::vector<float>{1, 2, 6, 8}));
}

// Input 3, kernel 3, stride 2: the full result has 2*2 + 3 = 7 positions.
TEST(ConvTransposeGeometry, SamePaddingAndExplicitPads) {
  ir::Op op;
  op.name = "up";
  const auto geometry = [&](std::map<std::string, ir::AttributeValue> attributes) {
    ir::OnnxNodeAttrs node;
    node.op_type = "ConvTranspose";
    node.attributes = std::move(attributes);
    node.attributes["strides"] = std::vector<int64_t>{2};
    return passes::conv_transpose_axes(op, node, {1, 1, 3}, {3}).at(0);
  };
  const passes::TransposedAxis upper = geometry({{"auto_pad", std::string("SAME_UPPER")}});
  EXPECT_EQ(upper.out, 6);
  EXPECT_EQ(upper.pad_begin, 0);  // the one extra position is cut at the end
  EXPECT_EQ(geometry({{"auto_pad", std::string("SAME_LOWER")}}).pad_begin, 1);
  const passes::TransposedAxis padded = geometry({{"pads", std::vector<int64_t>{1, 2}}});
  EXPECT_EQ(padded.out, 4);
  EXPECT_EQ(padded.pad_begin, 1);
  EXPECT_EQ(geometry({{"output_shape", std::vector<int64_t>{9}}}).pad_begin, 0);
}

}  // namespace
}  // namespace polyarch::interp
