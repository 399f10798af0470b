#include "compiler/interp/kernels_pool.h"

#include <gtest/gtest.h>

namespace polyarch::interp {
namespace {

PoolWindow window_of(std::vector<int64_t> kernel, std::vector<int64_t> pad_begin,
                     std::vector<int64_t> pad_end, std::vector<int64_t> dilations) {
  PoolWindow window;
  window.strides = std::vector<int64_t>(kernel.size(), 1);
  window.kernel = std::move(kernel);
  window.pad_begin = std::move(pad_begin);
  window.pad_end = std::move(pad_end);
  window.dilations = std::move(dilations);
  return window;
}

// The maximum 4 sits at row 0, column 1 of a 2x2 plane: flat index 1 row-major, 2 (column 1 of
// height 2) column-major; the second channel's plane starts 4 further.
TEST(WindowPool, MaxPoolIndicesAreFlatOverTheInput) {
  const DenseTensor input{{1, 2, 2, 2}, {1, 4, 3, 2, 0, 0, 9, 0}};
  PoolOptions options;
  options.with_indices = true;
  const PoolWindow window = window_of({2, 2}, {0, 0}, {0, 0}, {1, 1});
  EXPECT_EQ(window_pool(input, {1, 2, 1, 1}, window, options).at(1).values,
            (std::vector<float>{1, 6}));
  options.column_major_indices = true;
  EXPECT_EQ(window_pool(input, {1, 2, 1, 1}, window, options).at(1).values,
            (std::vector<float>{2, 5}));
}

// Over [1, 2, 3, 4] a window of 2 with one pad at the beginning only (SAME_LOWER's placement)
// averages {1}, {1, 2}, {2, 3}, {3, 4}: 1, 1.5, 2.5, 3.5; counting the pad, the first is 1/2.
TEST(WindowPool, UnevenPaddingShiftsOnlyTheFirstWindow) {
  const DenseTensor input{{1, 1, 4}, {1, 2, 3, 4}};
  PoolOptions options;
  options.take_max = false;
  const PoolWindow window = window_of({2}, {1}, {0}, {1});
  EXPECT_EQ(window_pool(input, {1, 1, 4}, window, options).at(0).values,
            (std::vector<float>{1, 1.5f, 2.5f, 3.5f}));
  options.count_include_pad = true;
  EXPECT_EQ(window_pool(input, {1, 1, 4}, window, options).at(0).values,
            (std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f}));
}

// Dilation 2 over a 4x4 plane of 1..16: the window at (0, 0) reads rows and columns 0 and 2
// (1, 3, 9, 11), the one at (1, 1) rows and columns 1 and 3 (6, 8, 14, 16).
TEST(WindowPool, DilatedWindowsSkipElements) {
  DenseTensor input{{1, 1, 4, 4}, {}};
  for (int i = 1; i <= 16; ++i) input.values.push_back(float(i));
  const PoolWindow window = window_of({2, 2}, {0, 0}, {0, 0}, {2, 2});
  EXPECT_EQ(window_pool(input, {1, 1, 2, 2}, window, PoolOptions{}).at(0).values,
            (std::vector<float>{11, 12, 15, 16}));
}

// A 3-D window of 2x2x2 over a 2x2x2 cube of 1..8 averages all eight: 4.5.
TEST(WindowPool, ThreeSpatialAxesPoolTogether) {
  const DenseTensor input{{1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}};
  PoolOptions options;
  options.take_max = false;
  const PoolWindow window = window_of({2, 2, 2}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1});
  EXPECT_EQ(window_pool(input, {1, 1, 1, 1, 1}, window, options).at(0).values,
            (std::vector<float>{4.5f}));
}

// A window over padding alone has nothing to pool: the kernel says so with no result.
TEST(WindowPool, WindowOverPaddingAloneGivesNoResult) {
  const DenseTensor input{{1, 1, 1}, {5}};
  const PoolWindow window = window_of({1}, {1}, {0}, {1});
  EXPECT_TRUE(window_pool(input, {1, 1, 2}, window, PoolOptions{}).empty());
}

}  // namespace
}  // namespace polyarch::interp
