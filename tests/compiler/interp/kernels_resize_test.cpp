// Resize on 1-D cases worked by hand from ONNX's coordinate transformations and coefficients.
#include <gtest/gtest.h>

#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {
namespace {

using Values = std::vector<float>;

// half_pixel, scale 2: outputs sample x_ori = -0.25, 0.25, 0.75, 1.25; the ends clamp to the
// edge values.
TEST(ResizeKernel, LinearHalfPixelUpsampling) {
  ResizeOptions options;
  options.mode = "linear";
  EXPECT_EQ(resize(DenseTensor{{2}, {1, 3}}, {4}, {2.0}, {}, options).values,
            (Values{1, 1.5f, 2.5f, 3}));
}

// asymmetric, scale 2: x_ori = 0, 0.5, 1, 1.5; a tie goes down by default, up with
// round_prefer_ceil.
TEST(ResizeKernel, NearestRoundsTiesByNearestMode) {
  ResizeOptions options;
  options.coordinate_mode = "asymmetric";
  const DenseTensor x{{2}, {1, 3}};
  EXPECT_EQ(resize(x, {4}, {2.0}, {}, options).values, (Values{1, 1, 3, 3}));
  options.nearest_mode = "round_prefer_ceil";
  EXPECT_EQ(resize(x, {4}, {2.0}, {}, options).values, (Values{1, 3, 3, 3}));
}

// align_corners from 4 to 7: x_ori = x / 2. At 1.5 the Keys kernel (A = -0.75) weighs the four
// neighbours -0.09375, 0.59375, 0.59375, -0.09375: on [0, 1, 4, 9] that is 2.125; at the
// integer 1 it takes the sample itself.
TEST(ResizeKernel, CubicAlignCorners) {
  ResizeOptions options;
  options.mode = "cubic";
  options.coordinate_mode = "align_corners";
  const Values result = resize(DenseTensor{{4}, {0, 1, 4, 9}}, {7}, {7.0 / 4}, {}, options).values;
  EXPECT_FLOAT_EQ(result[3], 2.125f);
  EXPECT_FLOAT_EQ(result[2], 1.0f);
}

// tf_crop_and_resize over roi [0.5, 1.5] of 3 samples: x_ori = 1 + 2x/3, past the last sample
// (2) from x = 2 on, which takes the extrapolation value.
TEST(ResizeKernel, CropAndResizeExtrapolatesOutsideTheInput) {
  ResizeOptions options;
  options.mode = "linear";
  options.coordinate_mode = "tf_crop_and_resize";
  options.extrapolation_value = -5;
  const Values result =
      resize(DenseTensor{{3}, {0, 10, 20}}, {4}, {4.0 / 3}, {0.5, 1.5}, options).values;
  EXPECT_FLOAT_EQ(result[0], 10.0f);
  EXPECT_FLOAT_EQ(result[1], 16.666666f);
  EXPECT_EQ(result[2], -5.0f);
  EXPECT_EQ(result[3], -5.0f);
}

}  // namespace
}  // namespace polyarch::interp
