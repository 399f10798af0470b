#include <gtest/gtest.h>

#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {
namespace {

const DenseTensor kPlane{{1, 1, 2, 2}, {1, 2, 3, 4}};

float sample_at(float x, float y, const GridSampleOptions& options) {
  return grid_sample(kPlane, DenseTensor{{1, 1, 1, 2}, {x, y}}, options).values.at(0);
}

// Without align_corners the normalized centre (0, 0) is pixel position (0.5, 0.5): the mean of
// the four pixels, 2.5. The corner (-1, -1) is position (-0.5, -0.5): a quarter of pixel (0, 0)
// with zeros outside, all of it with the border clamped.
TEST(GridSampleKernel, BilinearWeighsTheFourNeighbours) {
  GridSampleOptions options;
  EXPECT_FLOAT_EQ(sample_at(0, 0, options), 2.5f);
  EXPECT_FLOAT_EQ(sample_at(-1, -1, options), 0.25f);
  options.padding_mode = "border";
  EXPECT_FLOAT_EQ(sample_at(-1, -1, options), 1.0f);
}

// With align_corners, (1, -1) is exactly pixel (column 1, row 0): 2, whatever the mode.
TEST(GridSampleKernel, AlignedCornersAreThePixelCentres) {
  GridSampleOptions options;
  options.align_corners = true;
  for (const char* mode : {"nearest", "bilinear", "bicubic"}) {
    options.mode = mode;
    EXPECT_NEAR(sample_at(1, -1, options), 2.0f, 1e-6f) << mode;
  }
}

}  // namespace
}  // namespace polyarch::interp
