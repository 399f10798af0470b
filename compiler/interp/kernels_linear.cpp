// Matrix products and convolution.
#include <algorithm>

#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

// out[m x n] += a[m x k] * b[k x n], row-major, `a` and `b` read through strides so that
// transposed operands need no copy.
struct MatrixView {
  const float* values;
  int64_t row_stride;
  int64_t column_stride;
  float at(int64_t row, int64_t column) const {
    return values[row * row_stride + column * column_stride];
  }
};

void multiply_into(const MatrixView& a, const MatrixView& b, int64_t m, int64_t n, int64_t k,
                   float alpha, float* out) {
  for (int64_t row = 0; row < m; ++row) {
    for (int64_t inner = 0; inner < k; ++inner) {
      const float scaled = alpha * a.at(row, inner);
      for (int64_t column = 0; column < n; ++column) {
        out[row * n + column] += scaled * b.at(inner, column);
      }
    }
  }
}

// Batch axes of a matmul operand's shape (all but the last two).
Shape batch_axes(const Shape& shape) { return Shape(shape.begin(), shape.end() - 2); }

}  // namespace

DenseTensor gemm(const DenseTensor& a, const DenseTensor& b, const DenseTensor* c,
                 const GemmOptions& options) {
  if (a.shape.size() != 2 || b.shape.size() != 2) {
    throw_runtime({}, "gemm needs 2-D operands");
  }
  const int64_t m = options.trans_a ? a.shape[1] : a.shape[0];
  const int64_t k = options.trans_a ? a.shape[0] : a.shape[1];
  const int64_t n = options.trans_b ? b.shape[0] : b.shape[1];
  DenseTensor result = filled_tensor({m, n});
  if (c != nullptr) {
    const DenseTensor bias = broadcast_to(*c, result.shape);
    for (std::size_t i = 0; i < result.values.size(); ++i) {
      result.values[i] = options.beta * bias.values[i];
    }
  }
  const MatrixView a_view =
      options.trans_a ? MatrixView{a.values.data(), 1, m} : MatrixView{a.values.data(), k, 1};
  const MatrixView b_view =
      options.trans_b ? MatrixView{b.values.data(), 1, k} : MatrixView{b.values.data(), n, 1};
  multiply_into(a_view, b_view, m, n, k, options.alpha, result.values.data());
  return result;
}

DenseTensor matmul(const DenseTensor& a_in, const DenseTensor& b_in) {
  DenseTensor a = a_in;
  DenseTensor b = b_in;
  if (a.shape.size() == 1) a.shape.insert(a.shape.begin(), 1);
  if (b.shape.size() == 1) b.shape.push_back(1);
  const int64_t m = a.shape[a.shape.size() - 2];
  const int64_t k = a.shape.back();
  const int64_t n = b.shape.back();
  if (b.shape[b.shape.size() - 2] != k) throw_runtime({}, "matmul inner dimensions differ");
  // Broadcast the batch axes of both operands to a common shape.
  Shape batch = batch_axes(a.shape.size() >= b.shape.size() ? a.shape : b.shape);
  const Shape a_batch = batch_axes(a.shape);
  const Shape b_batch = batch_axes(b.shape);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const auto from_end = batch.size() - i;
    const int64_t a_dim = from_end <= a_batch.size() ? a_batch[a_batch.size() - from_end] : 1;
    const int64_t b_dim = from_end <= b_batch.size() ? b_batch[b_batch.size() - from_end] : 1;
    batch[i] = std::max(a_dim, b_dim);
  }
  Shape a_full = batch, b_full = batch;
  a_full.insert(a_full.end(), {m, k});
  b_full.insert(b_full.end(), {k, n});
  const DenseTensor a_wide = a.shape == a_full ? a : broadcast_to(a, a_full);
  const DenseTensor b_wide = b.shape == b_full ? b : broadcast_to(b, b_full);
  Shape result_shape = batch;
  if (a_in.shape.size() != 1) result_shape.push_back(m);
  if (b_in.shape.size() != 1) result_shape.push_back(n);
  DenseTensor result = filled_tensor(result_shape);
  const int64_t batches = ir::element_count(batch);
  for (int64_t entry = 0; entry < batches; ++entry) {
    multiply_into({a_wide.values.data() + entry * m * k, k, 1},
                  {b_wide.values.data() + entry * k * n, n, 1}, m, n, k, 1.0f,
                  result.values.data() + entry * m * n);
  }
  return result;
}

DenseTensor conv2d(const DenseTensor& input, const DenseTensor& weight, const DenseTensor* bias,
                   const ir::Conv2dAttrs& attrs) {
  const int64_t out_h = attrs.out_h();
  const int64_t out_w = attrs.out_w();
  const int64_t group_channels = attrs.c / attrs.groups;
  const int64_t group_filters = attrs.k / attrs.groups;
  DenseTensor result = filled_tensor({attrs.n, attrs.k, out_h, out_w});
  for (int64_t image = 0; image < attrs.n; ++image) {
    for (int64_t filter = 0; filter < attrs.k; ++filter) {
      float* out = result.values.data() + (image * attrs.k + filter) * out_h * out_w;
      if (bias != nullptr) std::fill(out, out + out_h * out_w, bias->values[filter]);
      const int64_t first_channel = (filter / group_filters) * group_channels;
      for (int64_t channel = 0; channel < group_channels; ++channel) {
        const float* plane =
            input.values.data() + (image * attrs.c + first_channel + channel) * attrs.h * attrs.w;
        const float* taps =
            weight.values.data() + (filter * group_channels + channel) * attrs.r * attrs.s;
        for (int64_t r = 0; r < attrs.r; ++r) {
          for (int64_t s = 0; s < attrs.s; ++s) {
            const float tap = taps[r * attrs.s + s];
            for (int64_t y = 0; y < out_h; ++y) {
              const int64_t in_y = attrs.input_row(y, r);
              if (in_y < 0 || in_y >= attrs.h) continue;
              for (int64_t x = 0; x < out_w; ++x) {
                const int64_t in_x = attrs.input_col(x, s);
                if (in_x < 0 || in_x >= attrs.w) continue;
                out[y * out_w + x] += tap * plane[in_y * attrs.w + in_x];
              }
            }
          }
        }
      }
    }
  }
  return result;
}

}  // namespace polyarch::interp
