// Selecting and statistics kernels on hand-worked cases.
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {
namespace {

using Values = std::vector<float>;

TEST(SelectKernels, TopKOrdersByValueAndKeepsIndexOrderForTies) {
  const DenseTensor x{{2, 4}, {1, 5, 5, 2, 9, 0, 3, 3}};
  const std::vector<DenseTensor> largest = top_k(x, 1, 2, true);
  EXPECT_EQ(largest[0].values, (Values{5, 5, 9, 3}));
  EXPECT_EQ(largest[1].values, (Values{1, 2, 0, 2}));
  const std::vector<DenseTensor> smallest = top_k(x, 1, 2, false);
  EXPECT_EQ(smallest[0].values, (Values{1, 2, 0, 3}));
  EXPECT_EQ(smallest[1].values, (Values{0, 3, 1, 2}));
  EXPECT_EQ(top_k(x, 0, 1, true)[1].values, (Values{1, 0, 0, 1}));
}

TEST(SelectKernels, CompressAlongAnAxisOrFlattened) {
  const DenseTensor x{{3, 2}, {1, 2, 3, 4, 5, 6}};
  const DenseTensor rows{{3}, {0, 1, 1}};
  const DenseTensor kept = compress(x, rows, 0);
  EXPECT_EQ(kept.shape, (Shape{2, 2}));
  EXPECT_EQ(kept.values, (Values{3, 4, 5, 6}));
  const DenseTensor some{{5}, {1, 0, 0, 1, 1}};  // shorter than the 6 elements: the rest go
  EXPECT_EQ(compress(x, some, std::nullopt).values, (Values{1, 4, 5}));
}

TEST(SelectKernels, NonZeroListsCoordinatesPerAxis) {
  const DenseTensor x{{2, 2}, {1, 0, 1, 1}};
  const DenseTensor result = non_zero(x);
  EXPECT_EQ(result.shape, (Shape{2, 3}));
  EXPECT_EQ(result.values, (Values{0, 1, 1, 0, 0, 1}));
}

// time_axis 0, batch_axis 1: column b reverses its first lengths[b] rows.
TEST(SelectKernels, ReverseSequenceReversesEachBatchEntrysPrefix) {
  const DenseTensor x{{3, 2}, {1, 10, 2, 20, 3, 30}};
  const DenseTensor lengths{{2}, {3, 2}};
  EXPECT_EQ(reverse_sequence(x, lengths, 1, 0).values, (Values{3, 20, 2, 10, 1, 30}));
}

// x in [-1, 2]: scale 3/255, zero point round(1 / (3/255)) = 85; 2 -> 170 + 85 = 255.
TEST(SelectKernels, DynamicQuantizeLinearSpansTheRangeWithZero) {
  const std::vector<DenseTensor> q = dynamic_quantize_linear(DenseTensor{{3}, {-1, 0, 2}});
  EXPECT_FLOAT_EQ(q[1].values[0], 3.0f / 255);
  EXPECT_EQ(q[2].values[0], 85);
  EXPECT_EQ(q[0].values, (Values{0, 85, 255}));
}

// [[1, 3], [5, 7]] over axis 1: means 2 and 6, deviations 1: -1, 1 in each row.
TEST(SelectKernels, MeanVarianceNormalizationOverTheGivenAxes) {
  const DenseTensor result = mean_variance_normalization(DenseTensor{{2, 2}, {1, 3, 5, 7}}, {1});
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(result.values[i], i % 2 == 0 ? -1.0f : 1.0f, 1e-6f);
  }
}

// det [[2, 1], [4, 3]] = 2; a row swap: det [[0, 1], [1, 0]] = -1.
TEST(SelectKernels, DeterminantWithPivoting) {
  EXPECT_FLOAT_EQ(determinant(DenseTensor{{2, 2}, {2, 1, 4, 3}}).values[0], 2.0f);
  const DenseTensor stack{{2, 2, 2}, {0, 1, 1, 0, 3, 0, 0, 3}};
  EXPECT_EQ(determinant(stack).values, (Values{-1, 9}));
}

}  // namespace
}  // namespace polyarch::interp
