// Pooling, normalisation, softmax and reductions.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

// Product of shape[from, to).
int64_t extent(const Shape& shape, std::size_t from, std::size_t to) {
  int64_t count = 1;
  for (std::size_t i = from; i < to; ++i) count *= shape[i];
  return count;
}

float pool_window(const float* plane, const ir::PoolAttrs& attrs, int64_t y, int64_t x,
                  bool count_include_pad, bool take_max) {
  float best = -std::numeric_limits<float>::infinity();
  double sum = 0.0;
  int64_t inside = 0;
  for (int64_t r = 0; r < attrs.r; ++r) {
    const int64_t in_y = y * attrs.stride + r - attrs.pad;
    if (in_y < 0 || in_y >= attrs.h) continue;
    for (int64_t s = 0; s < attrs.s; ++s) {
      const int64_t in_x = x * attrs.stride + s - attrs.pad;
      if (in_x < 0 || in_x >= attrs.w) continue;
      const float value = plane[in_y * attrs.w + in_x];
      best = std::max(best, value);
      sum += value;
      ++inside;
    }
  }
  if (take_max) return best;
  const int64_t divisor = count_include_pad ? attrs.r * attrs.s : inside;
  return static_cast<float>(sum / static_cast<double>(std::max<int64_t>(divisor, 1)));
}

}  // namespace

DenseTensor pool(const DenseTensor& input, const ir::PoolAttrs& attrs, bool count_include_pad,
                 bool global_max) {
  const bool take_max = attrs.kind == ir::PoolKind::kMax || global_max;
  const int64_t out_h = attrs.out_h();
  const int64_t out_w = attrs.out_w();
  DenseTensor result = filled_tensor({attrs.n, attrs.c, out_h, out_w});
  for (int64_t plane_index = 0; plane_index < attrs.n * attrs.c; ++plane_index) {
    const float* plane = input.values.data() + plane_index * attrs.h * attrs.w;
    float* out = result.values.data() + plane_index * out_h * out_w;
    for (int64_t y = 0; y < out_h; ++y) {
      for (int64_t x = 0; x < out_w; ++x) {
        out[y * out_w + x] = pool_window(plane, attrs, y, x, count_include_pad, take_max);
      }
    }
  }
  return result;
}

DenseTensor norm(const DenseTensor& input, const DenseTensor& scale, const DenseTensor* bias,
                 ir::NormKind kind, int64_t cols, float epsilon) {
  DenseTensor result = input;
  const int64_t rows = input.size() / cols;
  for (int64_t row = 0; row < rows; ++row) {
    float* values = result.values.data() + row * cols;
    double mean = 0.0;
    if (kind == ir::NormKind::kLayerNorm) {
      for (int64_t col = 0; col < cols; ++col) mean += values[col];
      mean /= static_cast<double>(cols);
    }
    double square_sum = 0.0;
    for (int64_t col = 0; col < cols; ++col) {
      const double centred = values[col] - mean;
      square_sum += centred * centred;
    }
    const double inverse_deviation =
        1.0 / std::sqrt(square_sum / static_cast<double>(cols) + epsilon);
    for (int64_t col = 0; col < cols; ++col) {
      const auto param = static_cast<std::size_t>(col % scale.size());
      double value = (values[col] - mean) * inverse_deviation * scale.values[param];
      if (bias != nullptr) value += bias->values[static_cast<std::size_t>(col % bias->size())];
      values[col] = static_cast<float>(value);
    }
  }
  return result;
}

DenseTensor softmax(const DenseTensor& input, int64_t axis, bool log) {
  const auto axis_index = static_cast<std::size_t>(axis);
  const int64_t outer = extent(input.shape, 0, axis_index);
  const int64_t length = input.shape[axis_index];
  const int64_t inner = extent(input.shape, axis_index + 1, input.shape.size());
  DenseTensor result = input;
  for (int64_t block = 0; block < outer; ++block) {
    for (int64_t lane = 0; lane < inner; ++lane) {
      float* base = result.values.data() + block * length * inner + lane;
      float peak = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < length; ++i) peak = std::max(peak, base[i * inner]);
      double sum = 0.0;
      for (int64_t i = 0; i < length; ++i) sum += std::exp(double{base[i * inner]} - peak);
      for (int64_t i = 0; i < length; ++i) {
        const double shifted = double{base[i * inner]} - peak;
        base[i * inner] =
            static_cast<float>(log ? shifted - std::log(sum) : std::exp(shifted) / sum);
      }
    }
  }
  return result;
}

DenseTensor reduce(const DenseTensor& input, const std::vector<int64_t>& axes,
                   const std::string& fn, const Shape& result_shape) {
  const std::set<int64_t> reduced(axes.begin(), axes.end());
  // The kept-dims shape: every reduced axis becomes 1.
  Shape kept = input.shape;
  for (int64_t axis : reduced) kept[static_cast<std::size_t>(axis)] = 1;
  const std::vector<int64_t> kept_strides = row_major_strides(kept);
  const int64_t count = ir::element_count(kept);
  const double initial = fn == "max"    ? -std::numeric_limits<double>::infinity()
                         : fn == "min"  ? std::numeric_limits<double>::infinity()
                         : fn == "prod" ? 1.0
                                        : 0.0;
  std::vector<double> accumulators(static_cast<std::size_t>(count), initial);
  const int64_t window = input.size() / std::max<int64_t>(count, 1);
  std::vector<int64_t> index(input.shape.size(), 0);
  for (int64_t flat = 0; flat < input.size(); ++flat) {
    int64_t target = 0;
    for (std::size_t axis = 0; axis < index.size(); ++axis) {
      if (kept[axis] != 1) target += index[axis] * kept_strides[axis];
    }
    double& accumulator = accumulators[static_cast<std::size_t>(target)];
    const double value = input.values[static_cast<std::size_t>(flat)];
    if (fn == "max") {
      accumulator = std::max(accumulator, value);
    } else if (fn == "min") {
      accumulator = std::min(accumulator, value);
    } else if (fn == "prod") {
      accumulator *= value;
    } else if (fn == "sum" || fn == "mean") {
      accumulator += value;
    } else {
      throw_runtime({}, "reduction '" + fn + "' is not implemented");
    }
    for (std::size_t axis = index.size(); axis-- > 0;) {
      if (++index[axis] < input.shape[axis]) break;
      index[axis] = 0;
    }
  }
  DenseTensor result;
  result.shape = result_shape;
  for (double accumulator : accumulators) {
    result.values.push_back(
        static_cast<float>(fn == "mean" ? accumulator / static_cast<double>(window) : accumulator));
  }
  return result;
}

}  // namespace polyarch::interp
