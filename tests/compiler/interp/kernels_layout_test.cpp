// Data movement kernels on hand-computed examples.
#include <gtest/gtest.h>

#include <cstdint>

#include "base/error.h"
#include "compiler/interp/kernels.h"

namespace polyarch::interp {
namespace {

const DenseTensor kMatrix{{2, 3}, {1, 2, 3, 4, 5, 6}};

TEST(LayoutKernels, GatherAlongAnAxisWithNegativeIndices) {
  const DenseTensor rows = gather(kMatrix, DenseTensor{{1}, {-1}}, 0);
  EXPECT_EQ(rows.shape, (Shape{1, 3}));
  EXPECT_EQ(rows.values, (std::vector<float>{4, 5, 6}));
  const DenseTensor columns = gather(kMatrix, DenseTensor{{2}, {2, 0}}, 1);
  EXPECT_EQ(columns.values, (std::vector<float>{3, 1, 6, 4}));
  EXPECT_THROW(gather(kMatrix, DenseTensor{{1}, {2}}, 0), Error);
}

TEST(LayoutKernels, TransposeConcatSplitAndBroadcast) {
  const DenseTensor transposed = transpose(kMatrix, {1, 0});
  EXPECT_EQ(transposed.shape, (Shape{3, 2}));
  EXPECT_EQ(transposed.values, (std::vector<float>{1, 4, 2, 5, 3, 6}));

  const DenseTensor joined = concat({&kMatrix, &kMatrix}, 1);
  EXPECT_EQ(joined.shape, (Shape{2, 6}));
  EXPECT_EQ(joined.values, (std::vector<float>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));

  const std::vector<DenseTensor> pieces = split(kMatrix, 1, {1, 2});
  EXPECT_EQ(pieces[0].values, (std::vector<float>{1, 4}));
  EXPECT_EQ(pieces[1].values, (std::vector<float>{2, 3, 5, 6}));

  const DenseTensor wide = broadcast_to(DenseTensor{{2, 1}, {7, 8}}, {2, 2});
  EXPECT_EQ(wide.values, (std::vector<float>{7, 7, 8, 8}));
  EXPECT_THROW(broadcast_to(kMatrix, {2, 4}), Error);
}

TEST(LayoutKernels, SliceClampsBoundsAndStepsBackwards) {
  // Columns 1.. to "infinity" (INT64_MAX, as exporters write it) of every row.
  SliceBounds tail{{1}, {INT64_MAX}, {1}, {1}};
  EXPECT_EQ(slice(kMatrix, tail).values, (std::vector<float>{2, 3, 5, 6}));
  // Rows backwards from the last, every column backwards with step 2.
  SliceBounds reversed{{-1, -1}, {INT64_MIN, INT64_MIN}, {0, 1}, {-1, -2}};
  const DenseTensor back = slice(kMatrix, reversed);
  EXPECT_EQ(back.shape, (Shape{2, 2}));
  EXPECT_EQ(back.values, (std::vector<float>{6, 4, 3, 1}));
  SliceBounds empty{{2}, {1}, {1}, {1}};
  EXPECT_EQ(slice(kMatrix, empty).shape, (Shape{2, 0}));
}

}  // namespace
}  // namespace polyarch::interp
