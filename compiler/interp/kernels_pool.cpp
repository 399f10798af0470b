#include "compiler/interp/kernels_pool.h"

#include <limits>

namespace polyarch::interp {

namespace {

// The flat index of `position` (one per spatial axis) within a plane of `dims`.
int64_t plane_offset(const std::vector<int64_t>& position, const Shape& dims, bool column_major) {
  int64_t offset = 0;
  if (column_major) {
    for (std::size_t axis = dims.size(); axis-- > 0;) offset = offset * dims[axis] + position[axis];
  } else {
    for (std::size_t axis = 0; axis < dims.size(); ++axis) {
      offset = offset * dims[axis] + position[axis];
    }
  }
  return offset;
}

// Advances a multi-index over `extents` in row-major order; false after the last.
bool next_index(std::vector<int64_t>& index, const std::vector<int64_t>& extents) {
  for (std::size_t axis = extents.size(); axis-- > 0;) {
    if (++index[axis] < extents[axis]) return true;
    index[axis] = 0;
  }
  return false;
}

}  // namespace

std::vector<DenseTensor> window_pool(const DenseTensor& input, const Shape& output_shape,
                                     const PoolWindow& window, const PoolOptions& options) {
  const std::size_t spatial = input.shape.size() - 2;
  const Shape in_dims(input.shape.begin() + 2, input.shape.end());
  const Shape out_dims(output_shape.begin() + 2, output_shape.end());
  const int64_t planes = input.shape[0] * input.shape[1];
  const int64_t plane_size = extent(input.shape, 2, input.shape.size());
  const int64_t out_plane_size = extent(output_shape, 2, output_shape.size());
  DenseTensor pooled = filled_tensor(output_shape);
  DenseTensor indices = filled_tensor(output_shape);
  indices.dtype = ir::DType::kInt64;
  std::vector<int64_t> position(spatial);
  for (int64_t plane = 0; plane < planes; ++plane) {
    const float* values = input.values.data() + plane * plane_size;
    std::vector<int64_t> out(spatial, 0);
    for (int64_t out_flat = 0; out_flat < out_plane_size; ++out_flat) {
      double sum = 0.0;
      float best = -std::numeric_limits<float>::infinity();
      int64_t best_at = -1;
      int64_t inside = 0;
      int64_t inside_padded = 0;
      std::vector<int64_t> tap(spatial, 0);
      do {
        bool in_input = true;
        bool in_padded = true;
        for (std::size_t axis = 0; axis < spatial; ++axis) {
          position[axis] = out[axis] * window.strides[axis] + tap[axis] * window.dilations[axis] -
                           window.pad_begin[axis];
          in_input = in_input && position[axis] >= 0 && position[axis] < in_dims[axis];
          in_padded = in_padded && position[axis] >= -window.pad_begin[axis] &&
                      position[axis] < in_dims[axis] + window.pad_end[axis];
        }
        if (in_padded) ++inside_padded;
        if (!in_input) continue;
        ++inside;
        const float value = values[plane_offset(position, in_dims, false)];
        sum += value;
        if (best_at < 0 || value > best) {
          best = value;
          best_at = plane_offset(position, in_dims, options.column_major_indices);
        }
      } while (next_index(tap, window.kernel));
      if (inside == 0) return {};
      const auto at = static_cast<std::size_t>(plane * out_plane_size + out_flat);
      const int64_t divisor = options.count_include_pad ? inside_padded : inside;
      pooled.values[at] = options.take_max ? best : static_cast<float>(sum / double(divisor));
      indices.values[at] = static_cast<float>(plane * plane_size + best_at);
      next_index(out, out_dims);
    }
  }
  if (!options.with_indices) return {pooled};
  return {pooled, indices};
}

}  // namespace polyarch::interp
