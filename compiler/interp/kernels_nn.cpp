// Pooling, normalisation, softmax and reductions.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/interp/kernels_data.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

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
  DenseTensor result = input;
  for_each_lane(input.shape, axis, [&](int64_t first, int64_t length, int64_t stride) {
    float* base = result.values.data() + first;
    float peak = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < length; ++i) peak = std::max(peak, base[i * stride]);
    double sum = 0.0;
    for (int64_t i = 0; i < length; ++i) sum += std::exp(double{base[i * stride]} - peak);
    for (int64_t i = 0; i < length; ++i) {
      const double shifted = double{base[i * stride]} - peak;
      base[i * stride] =
          static_cast<float>(log ? shifted - std::log(sum) : std::exp(shifted) / sum);
    }
  });
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
    } else if (fn == "sum" || fn == "mean" || fn == "logsum") {
      accumulator += value;
    } else if (fn == "l1") {
      accumulator += std::fabs(value);
    } else if (fn == "l2" || fn == "sumsquare") {
      accumulator += value * value;
    } else if (fn == "logsumexp") {
      accumulator += std::exp(value);
    } else {
      throw_runtime({}, "unknown reduction '" + fn +
                            "': lowering gives only max, min, prod, sum, mean, logsum, l1, l2, "
                            "sumsquare and logsumexp");
    }
    for (std::size_t axis = index.size(); axis-- > 0;) {
      if (++index[axis] < input.shape[axis]) break;
      index[axis] = 0;
    }
  }
  DenseTensor result;
  result.shape = result_shape;
  for (double accumulator : accumulators) {
    double value = accumulator;
    if (fn == "mean") value /= static_cast<double>(window);
    if (fn == "l2") value = std::sqrt(value);
    if (fn == "logsum" || fn == "logsumexp") value = std::log(value);
    result.values.push_back(static_cast<float>(value));
  }
  return result;
}

DenseTensor arg_reduce(const DenseTensor& input, int64_t axis, bool take_max, bool select_last,
                       const Shape& result_shape) {
  DenseTensor result = filled_tensor(result_shape);
  std::size_t next = 0;  // lanes come in the result's row-major order
  for_each_lane(input.shape, axis, [&](int64_t first, int64_t length, int64_t stride) {
    const float* base = input.values.data() + first;
    int64_t best = 0;
    for (int64_t i = 1; i < length; ++i) {
      const float value = base[i * stride];
      const float held = base[best * stride];
      const bool better = take_max ? value > held : value < held;
      if (better || (select_last && value == held)) best = i;
    }
    result.values[next++] = static_cast<float>(best);
  });
  return result;
}

}  // namespace polyarch::interp

namespace polyarch::interp {

DenseTensor lrn(const DenseTensor& input, int64_t size, float alpha, float beta, float bias) {
  const int64_t channels = input.shape[1];
  const int64_t plane = extent(input.shape, 2, input.shape.size());
  const int64_t before = (size - 1) / 2;
  const int64_t after = size / 2;  // ceil((size - 1) / 2)
  DenseTensor result = input;
  for (int64_t n = 0; n < input.shape[0]; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t p = 0; p < plane; ++p) {
        double square_sum = 0.0;
        for (int64_t i = std::max<int64_t>(0, c - before);
             i <= std::min<int64_t>(channels - 1, c + after); ++i) {
          const double x = input.values[static_cast<std::size_t>((n * channels + i) * plane + p)];
          square_sum += x * x;
        }
        const auto at = static_cast<std::size_t>((n * channels + c) * plane + p);
        result.values[at] = static_cast<float>(
            input.values[at] /
            std::pow(double{bias} + double{alpha} / static_cast<double>(size) * square_sum, beta));
      }
    }
  }
  return result;
}

DenseTensor nll_loss(const DenseTensor& input, const DenseTensor& target, const DenseTensor* weight,
                     const std::string& reduction, std::optional<int64_t> ignore_index) {
  const int64_t batch = input.shape[0];
  const int64_t classes = input.shape[1];
  const int64_t positions = extent(input.shape, 2, input.shape.size());
  DenseTensor losses = filled_tensor(target.shape);
  double loss_sum = 0.0;
  double weight_sum = 0.0;
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t d = 0; d < positions; ++d) {
      const auto at = static_cast<std::size_t>(n * positions + d);
      const auto label = static_cast<int64_t>(target.values[at]);
      if (ignore_index && label == *ignore_index) continue;
      if (label < 0 || label >= classes) {
        throw_bad_input({}, "target " + std::to_string(label) + " is outside [0, " +
                                std::to_string(classes) + ")");
      }
      const double w = weight != nullptr ? weight->values[static_cast<std::size_t>(label)] : 1.0;
      const double loss =
          -double{input.values[static_cast<std::size_t>((n * classes + label) * positions + d)]} *
          w;
      losses.values[at] = static_cast<float>(loss);
      loss_sum += loss;
      weight_sum += w;
    }
  }
  if (reduction == "none") return losses;
  if (reduction == "sum") return filled_tensor({}, static_cast<float>(loss_sum));
  if (reduction == "mean") return filled_tensor({}, static_cast<float>(loss_sum / weight_sum));
  throw_bad_input({}, "reduction '" + reduction + "' is not one of none, sum, mean");
}

}  // namespace polyarch::interp

namespace polyarch::interp {

std::vector<DenseTensor> layer_norm_statistics(const DenseTensor& input, int64_t cols,
                                               float epsilon, const Shape& statistics_shape) {
  DenseTensor mean = filled_tensor(statistics_shape);
  DenseTensor inverse_deviation = filled_tensor(statistics_shape);
  for (int64_t row = 0; row < mean.size(); ++row) {
    const float* values = input.values.data() + row * cols;
    double sum = 0.0;
    for (int64_t col = 0; col < cols; ++col) sum += values[col];
    const double row_mean = sum / static_cast<double>(cols);
    double square_sum = 0.0;
    for (int64_t col = 0; col < cols; ++col) {
      square_sum += (values[col] - row_mean) * (values[col] - row_mean);
    }
    mean.values[static_cast<std::size_t>(row)] = static_cast<float>(row_mean);
    inverse_deviation.values[static_cast<std::size_t>(row)] =
        static_cast<float>(1.0 / std::sqrt(square_sum / static_cast<double>(cols) + epsilon));
  }
  return {mean, inverse_deviation};
}

std::vector<DenseTensor> batch_norm_training(const DenseTensor& input, const DenseTensor& scale,
                                             const DenseTensor& bias, const DenseTensor& mean,
                                             const DenseTensor& variance, double epsilon,
                                             double momentum) {
  const int64_t batch = input.shape[0];
  const int64_t channels = input.shape[1];
  const int64_t plane = extent(input.shape, 2, input.shape.size());
  const auto at = [&](int64_t n, int64_t c, int64_t i) {
    return static_cast<std::size_t>((n * channels + c) * plane + i);
  };
  DenseTensor y = filled_tensor(input.shape);
  DenseTensor running_mean = filled_tensor({channels});
  DenseTensor running_variance = filled_tensor({channels});
  const auto count = static_cast<double>(batch * plane);
  for (int64_t c = 0; c < channels; ++c) {
    double sum = 0.0;
    for (int64_t n = 0; n < batch; ++n) {
      for (int64_t i = 0; i < plane; ++i) sum += input.values[at(n, c, i)];
    }
    const double batch_mean = sum / count;
    double square_sum = 0.0;
    for (int64_t n = 0; n < batch; ++n) {
      for (int64_t i = 0; i < plane; ++i) {
        const double deviation = input.values[at(n, c, i)] - batch_mean;
        square_sum += deviation * deviation;
      }
    }
    const double batch_variance = square_sum / count;
    const auto channel = static_cast<std::size_t>(c);
    const double factor = scale.values[channel] / std::sqrt(batch_variance + epsilon);
    for (int64_t n = 0; n < batch; ++n) {
      for (int64_t i = 0; i < plane; ++i) {
        y.values[at(n, c, i)] = static_cast<float>(
            (input.values[at(n, c, i)] - batch_mean) * factor + bias.values[channel]);
      }
    }
    running_mean.values[channel] =
        static_cast<float>(mean.values[channel] * momentum + batch_mean * (1 - momentum));
    running_variance.values[channel] =
        static_cast<float>(variance.values[channel] * momentum + batch_variance * (1 - momentum));
  }
  return {y, running_mean, running_variance};
}

}  // namespace polyarch::interp
