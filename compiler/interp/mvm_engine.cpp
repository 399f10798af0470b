// Static-weight ops as [m x k] x [k x n] products handed to an MvmEngine.
#include "compiler/interp/mvm_engine.h"

#include "base/error.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

// A 2-D operand as a row-major [rows x cols] matrix, transposed when `transposed`.
std::vector<float> row_major(const DenseTensor& matrix, bool transposed) {
  if (!transposed) return matrix.values;
  const int64_t rows = matrix.shape[0];
  const int64_t cols = matrix.shape[1];
  std::vector<float> result(matrix.values.size());
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t col = 0; col < cols; ++col)
      result[col * rows + row] = matrix.values[row * cols + col];
  }
  return result;
}

std::vector<float> product(MvmEngine& engine, const ir::Op& op, int64_t weight_set, int64_t m,
                           int64_t k, int64_t n, const std::vector<float>& activations,
                           const std::vector<float>& weights) {
  std::vector<float> result = engine.multiply({op, weight_set, m, k, n, activations, weights});
  if (static_cast<int64_t>(result.size()) != m * n) {
    throw_runtime({}, "the MVM engine returned " + std::to_string(result.size()) +
                          " values for a " + std::to_string(m) + " x " + std::to_string(n) +
                          " product");
  }
  return result;
}

}  // namespace

DenseTensor gemm_through(MvmEngine& engine, const ir::Op& op, const DenseTensor& a,
                         const DenseTensor& b, const DenseTensor* c, const GemmOptions& options) {
  if (a.shape.size() != 2 || b.shape.size() != 2) throw_runtime({}, "gemm needs 2-D operands");
  const int64_t m = options.trans_a ? a.shape[1] : a.shape[0];
  const int64_t k = options.trans_a ? a.shape[0] : a.shape[1];
  const int64_t n = options.trans_b ? b.shape[0] : b.shape[1];
  DenseTensor result = filled_tensor({m, n});
  result.values =
      product(engine, op, 0, m, k, n, row_major(a, options.trans_a), row_major(b, options.trans_b));
  const DenseTensor bias = c != nullptr ? broadcast_to(*c, result.shape) : DenseTensor{};
  for (std::size_t i = 0; i < result.values.size(); ++i) {
    result.values[i] *= options.alpha;
    if (c != nullptr) result.values[i] += options.beta * bias.values[i];
  }
  return result;
}

DenseTensor matmul_through(MvmEngine& engine, const ir::Op& op, const DenseTensor& a,
                           const DenseTensor& b) {
  if (b.shape.size() != 2 || a.shape.empty() || b.shape[0] == 0) return matmul(a, b);
  const int64_t k = b.shape[0];
  const int64_t n = b.shape[1];
  if (a.shape.back() != k) throw_runtime({}, "matmul inner dimensions differ");
  // Every leading axis of `a` gives more input vectors for the same weights.
  const int64_t m = a.size() / k;
  Shape result_shape(a.shape.begin(), a.shape.end() - 1);
  result_shape.push_back(n);
  DenseTensor result = filled_tensor(result_shape);
  result.values = product(engine, op, 0, m, k, n, a.values, b.values);
  return result;
}

DenseTensor conv2d_through(MvmEngine& engine, const ir::Op& op, const DenseTensor& input,
                           const DenseTensor& weight, const DenseTensor* bias,
                           const ir::Conv2dAttrs& attrs) {
  const int64_t out_h = attrs.out_h();
  const int64_t out_w = attrs.out_w();
  const int64_t pixels = out_h * out_w;
  const int64_t group_channels = attrs.c / attrs.groups;
  const int64_t group_filters = attrs.k / attrs.groups;
  const int64_t taps = attrs.r * attrs.s;
  const int64_t k = group_channels * taps;
  const int64_t m = attrs.n * pixels;
  DenseTensor result = filled_tensor({attrs.n, attrs.k, out_h, out_w});
  std::vector<float> columns(static_cast<std::size_t>(m * k));
  std::vector<float> filters(static_cast<std::size_t>(k * group_filters));
  for (int64_t group = 0; group < attrs.groups; ++group) {
    // im2col: row (image, y, x), column (channel, r, s); padding reads zeros.
    for (int64_t image = 0; image < attrs.n; ++image) {
      for (int64_t channel = 0; channel < group_channels; ++channel) {
        const float* plane =
            input.values.data() +
            (image * attrs.c + group * group_channels + channel) * attrs.h * attrs.w;
        for (int64_t tap = 0; tap < taps; ++tap) {
          const int64_t r = tap / attrs.s;
          const int64_t s = tap % attrs.s;
          for (int64_t y = 0; y < out_h; ++y) {
            const int64_t in_y = attrs.input_row(y, r);
            for (int64_t x = 0; x < out_w; ++x) {
              const int64_t in_x = attrs.input_col(x, s);
              const bool inside = in_y >= 0 && in_y < attrs.h && in_x >= 0 && in_x < attrs.w;
              columns[((image * pixels) + y * out_w + x) * k + channel * taps + tap] =
                  inside ? plane[in_y * attrs.w + in_x] : 0.0f;
            }
          }
        }
      }
    }
    for (int64_t filter = 0; filter < group_filters; ++filter) {
      const float* taps_of = weight.values.data() + (group * group_filters + filter) * k;
      for (int64_t row = 0; row < k; ++row) filters[row * group_filters + filter] = taps_of[row];
    }
    const std::vector<float> outputs =
        product(engine, op, group, m, k, group_filters, columns, filters);
    for (int64_t image = 0; image < attrs.n; ++image) {
      for (int64_t filter = 0; filter < group_filters; ++filter) {
        const int64_t channel = group * group_filters + filter;
        float* out = result.values.data() + (image * attrs.k + channel) * pixels;
        const float offset = bias != nullptr ? bias->values[channel] : 0.0f;
        for (int64_t pixel = 0; pixel < pixels; ++pixel) {
          out[pixel] = outputs[(image * pixels + pixel) * group_filters + filter] + offset;
        }
      }
    }
  }
  return result;
}

}  // namespace polyarch::interp
