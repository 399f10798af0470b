#include "compiler/interp/kernels_selection.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace polyarch::interp {

namespace {

struct Box {
  float y1, x1, y2, x2;
  float area() const { return (y2 - y1) * (x2 - x1); }
};

Box box_at(const DenseTensor& boxes, int64_t batch, int64_t index, bool center_point_box) {
  const int64_t count = boxes.shape[1];
  const float* v = boxes.values.data() + (batch * count + index) * 4;
  if (center_point_box) {
    return {v[1] - v[3] / 2, v[0] - v[2] / 2, v[1] + v[3] / 2, v[0] + v[2] / 2};
  }
  return {std::min(v[0], v[2]), std::min(v[1], v[3]), std::max(v[0], v[2]), std::max(v[1], v[3])};
}

// Whether two boxes overlap by more than `threshold` of their union (ONNX Runtime's test: empty
// boxes and empty intersections never do).
bool overlaps(const Box& a, const Box& b, float threshold) {
  const float height = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  const float width = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  if (height <= 0 || width <= 0 || a.area() <= 0 || b.area() <= 0) return false;
  const float intersection = height * width;
  const float union_area = a.area() + b.area() - intersection;
  return union_area > 0 && intersection / union_area > threshold;
}

}  // namespace

DenseTensor non_max_suppression(const DenseTensor& boxes, const DenseTensor& scores,
                                const NmsOptions& options) {
  const int64_t batches = scores.shape[0];
  const int64_t classes = scores.shape[1];
  const int64_t count = scores.shape[2];
  std::vector<float> selected;
  for (int64_t batch = 0; batch < batches; ++batch) {
    for (int64_t cls = 0; cls < classes; ++cls) {
      const float* score = scores.values.data() + (batch * classes + cls) * count;
      std::vector<int64_t> order;
      for (int64_t i = 0; i < count; ++i) {
        if (!options.score_threshold || score[i] > *options.score_threshold) order.push_back(i);
      }
      std::stable_sort(order.begin(), order.end(),
                       [&](int64_t a, int64_t b) { return score[a] > score[b]; });
      std::vector<Box> kept;
      for (int64_t index : order) {
        if (static_cast<int64_t>(kept.size()) >= options.max_per_class) break;
        const Box box = box_at(boxes, batch, index, options.center_point_box);
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](const Box& other) {
          return overlaps(box, other, options.iou_threshold);
        });
        if (suppressed) continue;
        kept.push_back(box);
        selected.insert(selected.end(), {float(batch), float(cls), float(index)});
      }
    }
  }
  DenseTensor result{{static_cast<int64_t>(selected.size() / 3), 3}, selected};
  result.dtype = ir::DType::kInt64;
  return result;
}

std::vector<DenseTensor> unique(const DenseTensor& input, std::optional<int64_t> axis,
                                bool sorted) {
  const Shape shape = axis ? input.shape : Shape{input.size()};
  const auto axis_index = static_cast<std::size_t>(axis.value_or(0));
  const int64_t outer = extent(shape, 0, axis_index);
  const int64_t length = shape[axis_index];
  const int64_t inner = extent(shape, axis_index + 1, shape.size());
  const auto slice = [&](int64_t i) {
    std::vector<float> values;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t e = 0; e < inner; ++e) {
        values.push_back(input.values[static_cast<std::size_t>((o * length + i) * inner + e)]);
      }
    }
    return values;
  };
  // Distinct slices by first occurrence, and each input slice's distinct one.
  std::vector<std::vector<float>> distinct;
  std::vector<int64_t> first, counts, which;
  for (int64_t i = 0; i < length; ++i) {
    const std::vector<float> values = slice(i);
    const auto found = std::find(distinct.begin(), distinct.end(), values);
    const auto position = static_cast<std::size_t>(found - distinct.begin());
    if (found == distinct.end()) {
      distinct.push_back(values);
      first.push_back(i);
      counts.push_back(0);
    }
    ++counts[position];
    which.push_back(static_cast<int64_t>(position));
  }
  std::vector<std::size_t> order(distinct.size());
  std::iota(order.begin(), order.end(), 0);
  if (sorted) {
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return distinct[a] < distinct[b]; });
  }
  std::vector<int64_t> rank(order.size());
  for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int64_t>(r);
  const auto kept = static_cast<int64_t>(order.size());
  Shape y_shape = shape;
  y_shape[axis_index] = kept;
  DenseTensor y = filled_tensor(y_shape);
  y.dtype = input.dtype;
  DenseTensor indices = filled_tensor({kept});
  DenseTensor inverse = filled_tensor({length});
  DenseTensor tally = filled_tensor({kept});
  for (int64_t r = 0; r < kept; ++r) {
    const std::vector<float>& values = distinct[order[static_cast<std::size_t>(r)]];
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t e = 0; e < inner; ++e) {
        y.values[static_cast<std::size_t>((o * kept + r) * inner + e)] =
            values[static_cast<std::size_t>(o * inner + e)];
      }
    }
    indices.values[static_cast<std::size_t>(r)] = float(first[order[static_cast<std::size_t>(r)]]);
    tally.values[static_cast<std::size_t>(r)] = float(counts[order[static_cast<std::size_t>(r)]]);
  }
  for (int64_t i = 0; i < length; ++i) {
    inverse.values[static_cast<std::size_t>(i)] =
        float(rank[static_cast<std::size_t>(which[static_cast<std::size_t>(i)])]);
  }
  for (DenseTensor* index : {&indices, &inverse, &tally}) index->dtype = ir::DType::kInt64;
  return {y, indices, inverse, tally};
}

DenseTensor max_unpool(const DenseTensor& input, const DenseTensor& indices,
                       const Shape& output_shape) {
  DenseTensor result = filled_tensor(output_shape);
  for (std::size_t i = 0; i < input.values.size(); ++i) {
    const auto at = static_cast<std::size_t>(indices.values[i]);
    result.values.at(at) = input.values[i];
  }
  return result;
}

}  // namespace polyarch::interp
