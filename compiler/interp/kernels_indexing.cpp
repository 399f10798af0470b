// Indexing kernels: GatherElements, ScatterElements, GatherND, ScatterND, OneHot, and the
// per-lane ones (Trilu, CumSum, Hardmax, EyeLike).
#include <algorithm>

#include "base/error.h"
#include "compiler/interp/kernels_data.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

// An index into an axis of `length`, negative ones counting from the end.
int64_t checked_index(float raw, int64_t length) {
  auto index = static_cast<int64_t>(raw);
  if (index < 0) index += length;
  if (index < 0 || index >= length) {
    throw_bad_input({}, "index " + std::to_string(static_cast<int64_t>(raw)) + " is outside [-" +
                            std::to_string(length) + ", " + std::to_string(length) + ")");
  }
  return index;
}

// Position of the element with row-major flat index `flat` of `shape`, in the tensor with
// `strides`, its coordinate on `axis` replaced by `index`.
int64_t replaced_offset(int64_t flat, const Shape& shape, const std::vector<int64_t>& strides,
                        std::size_t axis, int64_t index) {
  int64_t offset = 0;
  for (std::size_t d = shape.size(); d-- > 0;) {
    const int64_t coordinate = flat % shape[d];
    flat /= shape[d];
    offset += (d == axis ? index : coordinate) * strides[d];
  }
  return offset;
}

float combined(float held, float update, const std::string& reduction) {
  if (reduction == "add") return held + update;
  if (reduction == "mul") return held * update;
  if (reduction == "max") return std::max(held, update);
  if (reduction == "min") return std::min(held, update);
  if (reduction == "none") return update;
  throw_bad_input({},
                  "scatter reduction '" + reduction + "' is not one of none, add, mul, max, min");
}

// Offset into `data` of the slice that index tuple `tuple` (k values) names, after `batch`
// leading elements of batch offset.
int64_t tuple_offset(const float* tuple, int64_t k, const Shape& data_shape,
                     const std::vector<int64_t>& data_strides, std::size_t first_axis) {
  int64_t offset = 0;
  for (int64_t j = 0; j < k; ++j) {
    const std::size_t axis = first_axis + static_cast<std::size_t>(j);
    offset += checked_index(tuple[j], data_shape[axis]) * data_strides[axis];
  }
  return offset;
}

}  // namespace

DenseTensor gather_elements(const DenseTensor& data, const DenseTensor& indices, int64_t axis) {
  const auto axis_index = static_cast<std::size_t>(axis);
  const std::vector<int64_t> strides = row_major_strides(data.shape);
  DenseTensor result = filled_tensor(indices.shape);
  for (int64_t flat = 0; flat < indices.size(); ++flat) {
    const int64_t index =
        checked_index(indices.values[static_cast<std::size_t>(flat)], data.shape[axis_index]);
    result.values[static_cast<std::size_t>(flat)] = data.values[static_cast<std::size_t>(
        replaced_offset(flat, indices.shape, strides, axis_index, index))];
  }
  return result;
}

DenseTensor scatter_elements(const DenseTensor& data, const DenseTensor& indices,
                             const DenseTensor& updates, int64_t axis,
                             const std::string& reduction) {
  const auto axis_index = static_cast<std::size_t>(axis);
  const std::vector<int64_t> strides = row_major_strides(data.shape);
  DenseTensor result = data;
  for (int64_t flat = 0; flat < indices.size(); ++flat) {
    const int64_t index =
        checked_index(indices.values[static_cast<std::size_t>(flat)], data.shape[axis_index]);
    float& target = result.values[static_cast<std::size_t>(
        replaced_offset(flat, indices.shape, strides, axis_index, index))];
    target = combined(target, updates.values[static_cast<std::size_t>(flat)], reduction);
  }
  return result;
}

DenseTensor gather_nd(const DenseTensor& data, const DenseTensor& indices, int64_t batch_dims,
                      const Shape& result_shape) {
  const auto batch = static_cast<std::size_t>(batch_dims);
  const int64_t k = indices.shape.back();
  const int64_t batches = extent(data.shape, 0, batch);
  const int64_t data_batch = extent(data.shape, batch, data.shape.size());
  const int64_t tuples_per_batch = extent(indices.shape, batch, indices.shape.size() - 1);
  const int64_t slice = extent(data.shape, batch + static_cast<std::size_t>(k), data.shape.size());
  const std::vector<int64_t> strides = row_major_strides(data.shape);
  DenseTensor result;
  result.shape = result_shape;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t t = 0; t < tuples_per_batch; ++t) {
      const float* tuple = indices.values.data() + (b * tuples_per_batch + t) * k;
      const int64_t offset = b * data_batch + tuple_offset(tuple, k, data.shape, strides, batch);
      const float* begin = data.values.data() + offset;
      result.values.insert(result.values.end(), begin, begin + slice);
    }
  }
  return result;
}

DenseTensor scatter_nd(const DenseTensor& data, const DenseTensor& indices,
                       const DenseTensor& updates, const std::string& reduction) {
  const int64_t k = indices.shape.back();
  const int64_t tuples = extent(indices.shape, 0, indices.shape.size() - 1);
  const int64_t slice = extent(data.shape, static_cast<std::size_t>(k), data.shape.size());
  const std::vector<int64_t> strides = row_major_strides(data.shape);
  DenseTensor result = data;
  for (int64_t t = 0; t < tuples; ++t) {
    const int64_t offset = tuple_offset(indices.values.data() + t * k, k, data.shape, strides, 0);
    for (int64_t i = 0; i < slice; ++i) {
      float& target = result.values[static_cast<std::size_t>(offset + i)];
      target = combined(target, updates.values[static_cast<std::size_t>(t * slice + i)], reduction);
    }
  }
  return result;
}

DenseTensor trilu(const DenseTensor& input, int64_t k, bool upper) {
  DenseTensor result = input;
  const std::size_t rank = input.shape.size();
  const int64_t rows = input.shape[rank - 2];
  const int64_t cols = input.shape[rank - 1];
  for (int64_t flat = 0; flat < input.size(); ++flat) {
    const int64_t col = flat % cols;
    const int64_t row = (flat / cols) % rows;
    const bool kept = upper ? col - row >= k : col - row <= k;
    if (!kept) result.values[static_cast<std::size_t>(flat)] = 0.0f;
  }
  return result;
}

DenseTensor cumsum(const DenseTensor& input, int64_t axis, bool exclusive, bool reverse) {
  DenseTensor result = input;
  for_each_lane(input.shape, axis, [&](int64_t first, int64_t length, int64_t stride) {
    double running = 0.0;
    for (int64_t step = 0; step < length; ++step) {
      const int64_t i = reverse ? length - 1 - step : step;
      const auto at = static_cast<std::size_t>(first + i * stride);
      const double value = input.values[at];
      if (!exclusive) running += value;
      result.values[at] = static_cast<float>(running);
      if (exclusive) running += value;
    }
  });
  return result;
}

DenseTensor hardmax(const DenseTensor& input, int64_t axis) {
  DenseTensor result = filled_tensor(input.shape);
  for_each_lane(input.shape, axis, [&](int64_t first, int64_t length, int64_t stride) {
    int64_t best = 0;
    for (int64_t i = 1; i < length; ++i) {
      if (input.values[static_cast<std::size_t>(first + i * stride)] >
          input.values[static_cast<std::size_t>(first + best * stride)]) {
        best = i;
      }
    }
    if (length > 0) result.values[static_cast<std::size_t>(first + best * stride)] = 1.0f;
  });
  return result;
}

DenseTensor one_hot(const DenseTensor& indices, int64_t depth, int64_t axis, float off_value,
                    float on_value) {
  const auto axis_index = static_cast<std::size_t>(axis);
  Shape shape = indices.shape;
  shape.insert(shape.begin() + axis, depth);
  const int64_t outer = extent(indices.shape, 0, axis_index);
  const int64_t inner = extent(indices.shape, axis_index, indices.shape.size());
  DenseTensor result = filled_tensor(shape, off_value);
  for (int64_t block = 0; block < outer; ++block) {
    for (int64_t lane = 0; lane < inner; ++lane) {
      auto index =
          static_cast<int64_t>(indices.values[static_cast<std::size_t>(block * inner + lane)]);
      if (index < 0) index += depth;
      // ONNX: an index outside [-depth, depth) gives a row of off_value.
      if (index < 0 || index >= depth) continue;
      result.values[static_cast<std::size_t>((block * depth + index) * inner + lane)] = on_value;
    }
  }
  return result;
}

DenseTensor eye_like(const Shape& shape, int64_t k) {
  DenseTensor result = filled_tensor(shape);
  for (int64_t row = 0; row < shape[0]; ++row) {
    const int64_t col = row + k;
    if (col >= 0 && col < shape[1])
      result.values[static_cast<std::size_t>(row * shape[1] + col)] = 1.0f;
  }
  return result;
}

}  // namespace polyarch::interp
