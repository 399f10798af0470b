// Data movement: gathers, transposes, concatenation, splits and broadcasts.
#include <algorithm>

#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

// Calls visit(source_flat) for each element of `shape` in row-major order, where the source
// offset advances by `source_strides` per axis.
template <typename Visit>
void walk(const Shape& shape, const std::vector<int64_t>& source_strides, Visit visit) {
  const int64_t count = ir::element_count(shape);
  std::vector<int64_t> index(shape.size(), 0);
  int64_t source = 0;
  for (int64_t flat = 0; flat < count; ++flat) {
    visit(source);
    for (std::size_t axis = shape.size(); axis-- > 0;) {
      source += source_strides[axis];
      if (++index[axis] < shape[axis]) break;
      source -= source_strides[axis] * shape[axis];
      index[axis] = 0;
    }
  }
}

}  // namespace

DenseTensor gather(const DenseTensor& data, const DenseTensor& indices, int64_t axis) {
  const auto axis_index = static_cast<std::size_t>(axis);
  const int64_t outer = extent(data.shape, 0, axis_index);
  const int64_t length = data.shape[axis_index];
  const int64_t inner = extent(data.shape, axis_index + 1, data.shape.size());
  Shape shape(data.shape.begin(), data.shape.begin() + axis);
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), data.shape.begin() + axis + 1, data.shape.end());
  DenseTensor result;
  result.shape = shape;
  result.values.reserve(static_cast<std::size_t>(ir::element_count(shape)));
  for (int64_t block = 0; block < outer; ++block) {
    for (float raw : indices.values) {
      auto position = static_cast<int64_t>(raw);
      if (position < 0) position += length;
      if (position < 0 || position >= length) {
        throw_bad_input({}, "gather index " + std::to_string(static_cast<int64_t>(raw)) +
                                " is outside [0, " + std::to_string(length) + ")");
      }
      const float* row = data.values.data() + (block * length + position) * inner;
      result.values.insert(result.values.end(), row, row + inner);
    }
  }
  return result;
}

DenseTensor transpose(const DenseTensor& input, const std::vector<int64_t>& perm) {
  const std::vector<int64_t> input_strides = row_major_strides(input.shape);
  DenseTensor result;
  std::vector<int64_t> source_strides;
  for (int64_t axis : perm) {
    result.shape.push_back(input.shape[static_cast<std::size_t>(axis)]);
    source_strides.push_back(input_strides[static_cast<std::size_t>(axis)]);
  }
  result.values.reserve(input.values.size());
  walk(result.shape, source_strides,
       [&](int64_t source) { result.values.push_back(input.values[source]); });
  return result;
}

DenseTensor concat(const std::vector<const DenseTensor*>& inputs, int64_t axis) {
  const auto axis_index = static_cast<std::size_t>(axis);
  DenseTensor result;
  result.shape = inputs.front()->shape;
  result.shape[axis_index] = 0;
  for (const DenseTensor* input : inputs) result.shape[axis_index] += input->shape[axis_index];
  const int64_t outer = extent(result.shape, 0, axis_index);
  for (int64_t block = 0; block < outer; ++block) {
    for (const DenseTensor* input : inputs) {
      const int64_t chunk = extent(input->shape, axis_index, input->shape.size());
      const float* begin = input->values.data() + block * chunk;
      result.values.insert(result.values.end(), begin, begin + chunk);
    }
  }
  return result;
}

std::vector<DenseTensor> split(const DenseTensor& input, int64_t axis,
                               const std::vector<int64_t>& sizes) {
  const auto axis_index = static_cast<std::size_t>(axis);
  const int64_t outer = extent(input.shape, 0, axis_index);
  const int64_t inner = extent(input.shape, axis_index + 1, input.shape.size());
  const int64_t row = input.shape[axis_index] * inner;
  std::vector<DenseTensor> pieces;
  int64_t offset = 0;
  for (int64_t size : sizes) {
    DenseTensor piece;
    piece.shape = input.shape;
    piece.shape[axis_index] = size;
    for (int64_t block = 0; block < outer; ++block) {
      const float* begin = input.values.data() + block * row + offset * inner;
      piece.values.insert(piece.values.end(), begin, begin + size * inner);
    }
    offset += size;
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

DenseTensor slice(const DenseTensor& input, const SliceBounds& bounds) {
  const std::vector<int64_t> input_strides = row_major_strides(input.shape);
  Shape shape = input.shape;
  std::vector<int64_t> source_strides = input_strides;
  int64_t first = 0;  // offset of the first element taken
  for (std::size_t i = 0; i < bounds.axes.size(); ++i) {
    const auto axis = static_cast<std::size_t>(bounds.axes[i]);
    const int64_t dim = input.shape[axis];
    const int64_t step = bounds.steps[i];
    int64_t start = bounds.starts[i] < 0 ? bounds.starts[i] + dim : bounds.starts[i];
    int64_t end = bounds.ends[i] < 0 ? bounds.ends[i] + dim : bounds.ends[i];
    if (bounds.ends[i] < -dim) end = -1;  // INT64_MIN-style "before the start"
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      shape[axis] = std::max<int64_t>(0, (end - start + step - 1) / step);
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      shape[axis] = std::max<int64_t>(0, (start - end - step - 1) / -step);
    }
    first += start * input_strides[axis];
    source_strides[axis] = step * input_strides[axis];
  }
  DenseTensor result;
  result.shape = shape;
  result.values.reserve(static_cast<std::size_t>(ir::element_count(shape)));
  walk(shape, source_strides,
       [&](int64_t source) { result.values.push_back(input.values[first + source]); });
  return result;
}

DenseTensor broadcast_to(const DenseTensor& input, const Shape& shape) {
  if (input.shape.size() > shape.size()) throw_runtime({}, "cannot broadcast to a lower rank");
  const std::vector<int64_t> input_strides = row_major_strides(input.shape);
  const std::size_t lead = shape.size() - input.shape.size();
  std::vector<int64_t> source_strides(shape.size(), 0);
  for (std::size_t axis = 0; axis < input.shape.size(); ++axis) {
    const int64_t dim = input.shape[axis];
    if (dim != 1 && dim != shape[lead + axis]) {
      throw_runtime({}, "operand dimension " + std::to_string(dim) + " does not broadcast to " +
                            std::to_string(shape[lead + axis]));
    }
    source_strides[lead + axis] = dim == 1 ? 0 : input_strides[axis];
  }
  DenseTensor result;
  result.shape = shape;
  result.values.reserve(static_cast<std::size_t>(ir::element_count(shape)));
  walk(shape, source_strides,
       [&](int64_t source) { result.values.push_back(input.values[source]); });
  return result;
}

}  // namespace polyarch::interp
