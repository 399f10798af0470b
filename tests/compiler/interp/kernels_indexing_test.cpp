// Indexing kernels against the examples of ONNX's operator documentation and hand-worked cases.
#include <gtest/gtest.h>

#include "base/error.h"
#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {
namespace {

using Values = std::vector<float>;

// ONNX GatherElements, example 1.
TEST(IndexingKernels, GatherElementsReplacesTheAxisCoordinate) {
  const DenseTensor data{{2, 2}, {1, 2, 3, 4}};
  const DenseTensor indices{{2, 2}, {0, 0, 1, 0}};
  const DenseTensor result = gather_elements(data, indices, 1);
  EXPECT_EQ(result.shape, (Shape{2, 2}));
  EXPECT_EQ(result.values, (Values{1, 1, 4, 3}));
  const DenseTensor negative{{2, 1}, {-1, -2}};  // counts from the end of axis 1
  EXPECT_EQ(gather_elements(data, negative, 1).values, (Values{2, 3}));
}

TEST(IndexingKernels, GatherElementsRejectsAnIndexPastTheAxis) {
  const DenseTensor data{{2}, {1, 2}};
  const DenseTensor indices{{1}, {2}};
  EXPECT_THROW(gather_elements(data, indices, 0), Error);
}

// ONNX ScatterElements, example 1 (axis 0), and the duplicate-index case with reduction=add.
TEST(IndexingKernels, ScatterElementsSetsOrAddsAlongTheAxis) {
  const DenseTensor data = filled_tensor({3, 3});
  const DenseTensor indices{{2, 3}, {1, 0, 2, 0, 2, 1}};
  const DenseTensor updates{{2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f}};
  EXPECT_EQ(scatter_elements(data, indices, updates, 0, "none").values,
            (Values{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f}));
  const DenseTensor row{{1, 5}, {1, 2, 3, 4, 5}};
  const DenseTensor twice{{1, 2}, {1, 1}};
  const DenseTensor added{{1, 2}, {1.5f, 2.5f}};
  EXPECT_EQ(scatter_elements(row, twice, added, 1, "add").values, (Values{1, 6, 3, 4, 5}));
  EXPECT_EQ(scatter_elements(row, twice, added, 1, "mul").values, (Values{1, 7.5f, 3, 4, 5}));
}

// ONNX GatherND, examples 1, 2 and 5 (batch_dims=1).
TEST(IndexingKernels, GatherNdTakesElementsSlicesAndBatchedSlices) {
  const DenseTensor matrix{{2, 2}, {0, 1, 2, 3}};
  EXPECT_EQ(gather_nd(matrix, DenseTensor{{2, 2}, {0, 0, 1, 1}}, 0, {2}).values, (Values{0, 3}));
  EXPECT_EQ(gather_nd(matrix, DenseTensor{{2, 1}, {1, 0}}, 0, {2, 2}).values, (Values{2, 3, 0, 1}));
  const DenseTensor cube{{2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}};
  EXPECT_EQ(gather_nd(cube, DenseTensor{{2, 1}, {1, 0}}, 1, {2, 2}).values, (Values{2, 3, 4, 5}));
}

// ONNX ScatterND, example 1.
TEST(IndexingKernels, ScatterNdReplacesTheNamedElements) {
  const DenseTensor data{{8}, {1, 2, 3, 4, 5, 6, 7, 8}};
  const DenseTensor indices{{4, 1}, {4, 3, 1, 7}};
  const DenseTensor updates{{4}, {9, 10, 11, 12}};
  EXPECT_EQ(scatter_nd(data, indices, updates, "none").values, (Values{1, 11, 3, 10, 9, 6, 7, 12}));
  EXPECT_EQ(scatter_nd(data, indices, updates, "add").values, (Values{1, 13, 3, 14, 14, 6, 7, 20}));
}

TEST(IndexingKernels, TriluKeepsADiagonalBand) {
  const DenseTensor square{{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  EXPECT_EQ(trilu(square, 0, true).values, (Values{1, 2, 3, 0, 5, 6, 0, 0, 9}));
  EXPECT_EQ(trilu(square, 1, true).values, (Values{0, 2, 3, 0, 0, 6, 0, 0, 0}));
  EXPECT_EQ(trilu(square, -1, false).values, (Values{0, 0, 0, 4, 0, 0, 7, 8, 0}));
}

TEST(IndexingKernels, CumSumInclusiveExclusiveAndReversed) {
  const DenseTensor x{{5}, {1, 2, 3, 4, 5}};
  EXPECT_EQ(cumsum(x, 0, false, false).values, (Values{1, 3, 6, 10, 15}));
  EXPECT_EQ(cumsum(x, 0, true, false).values, (Values{0, 1, 3, 6, 10}));
  EXPECT_EQ(cumsum(x, 0, false, true).values, (Values{15, 14, 12, 9, 5}));
  EXPECT_EQ(cumsum(x, 0, true, true).values, (Values{14, 12, 9, 5, 0}));
  const DenseTensor matrix{{2, 3}, {1, 2, 3, 4, 5, 6}};
  EXPECT_EQ(cumsum(matrix, 0, false, false).values, (Values{1, 2, 3, 5, 7, 9}));
}

TEST(IndexingKernels, HardmaxMarksTheFirstLargest) {
  const DenseTensor x{{2, 3}, {1, 3, 3, 2, 0, 1}};
  EXPECT_EQ(hardmax(x, 1).values, (Values{0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(hardmax(x, 0).values, (Values{0, 1, 1, 1, 0, 0}));
}

TEST(IndexingKernels, OneHotOnAnyAxisWithNegativeAndOutOfRangeIndices) {
  const DenseTensor indices{{3}, {0, -1, 5}};  // -1 is depth-1; 5 is outside: all off
  const DenseTensor last = one_hot(indices, 3, 1, 0, 1);
  EXPECT_EQ(last.shape, (Shape{3, 3}));
  EXPECT_EQ(last.values, (Values{1, 0, 0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(one_hot(indices, 3, 0, -2, 7).values, (Values{7, -2, -2, -2, -2, -2, -2, 7, -2}));
}

TEST(IndexingKernels, EyeLikeShiftsTheDiagonalByK) {
  EXPECT_EQ(eye_like({2, 3}, 1).values, (Values{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(eye_like({3, 2}, -1).values, (Values{0, 0, 1, 0, 0, 1}));
}

}  // namespace
}  // namespace polyarch::interp
