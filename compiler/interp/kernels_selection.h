#pragma once
// Operators that choose elements by their values: NonMaxSuppression, Unique and MaxUnpool.
#include <optional>
#include <vector>

#include "compiler/interp/dense_tensor.h"

namespace polyarch::interp {

struct NmsOptions {
  bool center_point_box = false;  // boxes as [x_center, y_center, width, height]
  int64_t max_per_class = 0;
  float iou_threshold = 0.0f;
  std::optional<float> score_threshold;
};

// NonMaxSuppression of boxes [batch, boxes, 4] ([y1, x1, y2, x2], corners in either order,
// unless center_point_box) scored [batch, classes, boxes]: per batch entry and class, the boxes
// scoring above the threshold by descending score (equal scores by index), each kept unless it
// overlaps a kept one by an IoU above the threshold, at most max_per_class. The result is
// [selected, 3] of (batch, class, box), in that order.
DenseTensor non_max_suppression(const DenseTensor& boxes, const DenseTensor& scores,
                                const NmsOptions& options);

// Unique slices along `axis` (elements of the flattened input without one): the slices (by
// first occurrence, or in ascending order when `sorted`), the index of each one's first
// occurrence, each input slice's position among them, and how often each occurs.
std::vector<DenseTensor> unique(const DenseTensor& input, std::optional<int64_t> axis, bool sorted);

// MaxUnpool: a zero tensor of `output_shape` with each input value at the flat position its
// index gives.
DenseTensor max_unpool(const DenseTensor& input, const DenseTensor& indices,
                       const Shape& output_shape);

}  // namespace polyarch::interp
