// Kernels that select or reorder elements by their values: TopK, Compress, NonZero,
// ReverseSequence; and the statistics-driven DynamicQuantizeLinear, MeanVarianceNormalization
// and Det.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {

std::vector<DenseTensor> top_k(const DenseTensor& input, int64_t axis, int64_t k, bool largest) {
  Shape shape = input.shape;
  shape[static_cast<std::size_t>(axis)] = k;
  DenseTensor values = filled_tensor(shape);
  DenseTensor indices = filled_tensor(shape);
  for_each_lane(input.shape, axis, [&](int64_t first, int64_t length, int64_t stride) {
    if (k > length) throw_bad_input({}, "TopK k=" + std::to_string(k) + " exceeds the axis");
    std::vector<int64_t> order(static_cast<std::size_t>(length));
    std::iota(order.begin(), order.end(), 0);
    const auto at = [&](int64_t i) {
      return input.values[static_cast<std::size_t>(first + i * stride)];
    };
    // Equal values keep their index order (ONNX: the lower index first).
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return largest ? at(a) > at(b) : at(a) < at(b); });
    // The result lane with the same outer and inner position, stride the same as the input's.
    const int64_t inner = stride;
    const int64_t block = first / (length * inner);
    const int64_t offset = first % inner;
    for (int64_t j = 0; j < k; ++j) {
      const auto out = static_cast<std::size_t>((block * k + j) * inner + offset);
      values.values[out] = at(order[static_cast<std::size_t>(j)]);
      indices.values[out] = static_cast<float>(order[static_cast<std::size_t>(j)]);
    }
  });
  return {values, indices};
}

DenseTensor compress(const DenseTensor& input, const DenseTensor& condition,
                     std::optional<int64_t> axis) {
  const DenseTensor flat = axis ? input : DenseTensor{{input.size()}, input.values, input.dtype};
  const auto along = static_cast<std::size_t>(axis.value_or(0));
  const int64_t length = flat.shape[along];
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < length && i < condition.size(); ++i) {
    if (condition.values[static_cast<std::size_t>(i)] != 0.0f) kept.push_back(i);
  }
  Shape shape = flat.shape;
  shape[along] = static_cast<int64_t>(kept.size());
  const int64_t outer = extent(flat.shape, 0, along);
  const int64_t inner = extent(flat.shape, along + 1, flat.shape.size());
  DenseTensor result;
  result.shape = shape;
  for (int64_t block = 0; block < outer; ++block) {
    for (int64_t i : kept) {
      const float* begin = flat.values.data() + (block * length + i) * inner;
      result.values.insert(result.values.end(), begin, begin + inner);
    }
  }
  return result;
}

DenseTensor non_zero(const DenseTensor& input) {
  const std::size_t rank = input.shape.size();
  std::vector<int64_t> hits;
  for (int64_t i = 0; i < input.size(); ++i) {
    if (input.values[static_cast<std::size_t>(i)] != 0.0f) hits.push_back(i);
  }
  DenseTensor result =
      filled_tensor({static_cast<int64_t>(rank), static_cast<int64_t>(hits.size())});
  for (std::size_t h = 0; h < hits.size(); ++h) {
    int64_t rest = hits[h];
    for (std::size_t d = rank; d-- > 0;) {
      result.values[d * hits.size() + h] = static_cast<float>(rest % input.shape[d]);
      rest /= input.shape[d];
    }
  }
  return result;
}

DenseTensor reverse_sequence(const DenseTensor& input, const DenseTensor& lengths,
                             int64_t batch_axis, int64_t time_axis) {
  const std::vector<int64_t> strides = row_major_strides(input.shape);
  const auto batch = static_cast<std::size_t>(batch_axis);
  const auto time = static_cast<std::size_t>(time_axis);
  DenseTensor result = input;
  for (int64_t flat = 0; flat < input.size(); ++flat) {
    const int64_t b = flat / strides[batch] % input.shape[batch];
    const int64_t t = flat / strides[time] % input.shape[time];
    const auto length = static_cast<int64_t>(lengths.values.at(static_cast<std::size_t>(b)));
    if (length < 0 || length > input.shape[time]) {
      throw_bad_input({}, "sequence length " + std::to_string(length) + " is outside [0, " +
                              std::to_string(input.shape[time]) + "]");
    }
    if (t >= length) continue;
    const int64_t source = flat + (length - 1 - 2 * t) * strides[time];
    result.values[static_cast<std::size_t>(flat)] = input.values[static_cast<std::size_t>(source)];
  }
  return result;
}

// ONNX's definition, in fp32 as its function body computes: the range [min(x, 0), max(x, 0)]
// over uint8's 255 steps, the zero point -min/scale rounded (half to even) and saturated, each
// element round(x / scale) + zero point saturated to [0, 255].
std::vector<DenseTensor> dynamic_quantize_linear(const DenseTensor& input) {
  float low = 0.0f;
  float high = 0.0f;
  for (float value : input.values) {
    low = std::min(low, value);
    high = std::max(high, value);
  }
  const float scale = (high - low) / 255.0f;
  const float zero_point = std::nearbyint(std::clamp(0.0f - low / scale, 0.0f, 255.0f));
  DenseTensor quantized = filled_tensor(input.shape);
  for (std::size_t i = 0; i < input.values.size(); ++i) {
    const float quotient = input.values[i] / scale;
    quantized.values[i] = std::clamp(std::nearbyint(quotient) + zero_point, 0.0f, 255.0f);
  }
  return {quantized, filled_tensor({}, scale), filled_tensor({}, zero_point)};
}

// MeanVarianceNormalization's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9), the
// expectations over `axes`.
DenseTensor mean_variance_normalization(const DenseTensor& input,
                                        const std::vector<int64_t>& axes) {
  Shape kept = input.shape;
  for (int64_t axis : axes) kept[static_cast<std::size_t>(axis)] = 1;
  const DenseTensor mean = reduce(input, axes, "mean", kept);
  DenseTensor squares = input;
  for (float& value : squares.values) value *= value;
  const DenseTensor mean_square = reduce(squares, axes, "mean", kept);
  const std::vector<int64_t> kept_strides = row_major_strides(kept);
  const std::vector<int64_t> strides = row_major_strides(input.shape);
  DenseTensor result = input;
  for (int64_t flat = 0; flat < input.size(); ++flat) {
    int64_t at = 0;
    for (std::size_t d = 0; d < kept.size(); ++d) {
      if (kept[d] != 1) at += flat / strides[d] % input.shape[d] * kept_strides[d];
    }
    const float m = mean.values[static_cast<std::size_t>(at)];
    const float deviation =
        std::sqrt(mean_square.values[static_cast<std::size_t>(at)] - m * m) + 1e-9f;
    result.values[static_cast<std::size_t>(flat)] =
        (input.values[static_cast<std::size_t>(flat)] - m) / deviation;
  }
  return result;
}

// Gaussian elimination with partial pivoting in double, per trailing [n, n] matrix.
DenseTensor determinant(const DenseTensor& input) {
  const int64_t n = input.shape.back();
  Shape shape(input.shape.begin(), input.shape.end() - 2);
  DenseTensor result = filled_tensor(shape);
  for (int64_t m = 0; m < result.size(); ++m) {
    std::vector<double> a(input.values.begin() + m * n * n, input.values.begin() + (m + 1) * n * n);
    double det = 1.0;
    for (int64_t col = 0; col < n; ++col) {
      int64_t pivot = col;
      for (int64_t row = col + 1; row < n; ++row) {
        if (std::fabs(a[row * n + col]) > std::fabs(a[pivot * n + col])) pivot = row;
      }
      if (a[pivot * n + col] == 0.0) {
        det = 0.0;
        break;
      }
      if (pivot != col) {
        for (int64_t k = 0; k < n; ++k) std::swap(a[col * n + k], a[pivot * n + k]);
        det = -det;
      }
      det *= a[col * n + col];
      for (int64_t row = col + 1; row < n; ++row) {
        const double factor = a[row * n + col] / a[col * n + col];
        for (int64_t k = col; k < n; ++k) a[row * n + k] -= factor * a[col * n + k];
      }
    }
    result.values[static_cast<std::size_t>(m)] = static_cast<float>(det);
  }
  return result;
}

}  // namespace polyarch::interp
