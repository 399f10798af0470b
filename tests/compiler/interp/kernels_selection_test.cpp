#include "compiler/interp/kernels_selection.h"

#include <gtest/gtest.h>

namespace polyarch::interp {
namespace {

// Boxes 0 and 1 are the unit square and the same square shifted by 0.1 (IoU 0.9/1.1 = 0.82);
// box 2 is far away. By scores 0.9, 0.8, 0.7 and an IoU threshold of 0.5, box 1 is suppressed.
TEST(NonMaxSuppressionKernel, OverlappingLowerScoreIsSuppressed) {
  const DenseTensor boxes{{1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 5, 5, 6, 6}};
  const DenseTensor scores{{1, 1, 3}, {0.9f, 0.8f, 0.7f}};
  NmsOptions options;
  options.max_per_class = 3;
  options.iou_threshold = 0.5f;
  const DenseTensor selected = non_max_suppression(boxes, scores, options);
  EXPECT_EQ(selected.shape, (Shape{2, 3}));
  EXPECT_EQ(selected.values, (std::vector<float>{0, 0, 0, 0, 0, 2}));
  options.max_per_class = 1;
  EXPECT_EQ(non_max_suppression(boxes, scores, options).values, (std::vector<float>{0, 0, 0}));
}

// [2, 1, 1, 3] sorted: Y [1, 2, 3], first indices [1, 0, 3], inverse [1, 0, 0, 2], counts
// [2, 1, 1]; unsorted, Y keeps first occurrences: [2, 1, 3].
TEST(UniqueKernel, SortedAndFirstOccurrenceOrders) {
  const DenseTensor input{{4}, {2, 1, 1, 3}};
  const std::vector<DenseTensor> sorted = unique(input, std::nullopt, true);
  EXPECT_EQ(sorted[0].values, (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(sorted[1].values, (std::vector<float>{1, 0, 3}));
  EXPECT_EQ(sorted[2].values, (std::vector<float>{1, 0, 0, 2}));
  EXPECT_EQ(sorted[3].values, (std::vector<float>{2, 1, 1}));
  EXPECT_EQ(unique(input, std::nullopt, false)[0].values, (std::vector<float>{2, 1, 3}));
}

// Rows [1, 2], [1, 2], [0, 5] along axis 0: two distinct rows, [0, 5] first when sorted.
TEST(UniqueKernel, AlongAnAxisComparesWholeSlices) {
  const DenseTensor input{{3, 2}, {1, 2, 1, 2, 0, 5}};
  const std::vector<DenseTensor> rows = unique(input, 0, true);
  EXPECT_EQ(rows[0].shape, (Shape{2, 2}));
  EXPECT_EQ(rows[0].values, (std::vector<float>{0, 5, 1, 2}));
  EXPECT_EQ(rows[3].values, (std::vector<float>{1, 2}));
}

TEST(MaxUnpoolKernel, ValuesLandAtTheirIndices) {
  const DenseTensor values{{1, 1, 1, 2}, {7, 9}};
  const DenseTensor indices{{1, 1, 1, 2}, {1, 2}};
  EXPECT_EQ(max_unpool(values, indices, {1, 1, 2, 2}).values, (std::vector<float>{0, 7, 9, 0}));
}

}  // namespace
}  // namespace polyarch::interp
