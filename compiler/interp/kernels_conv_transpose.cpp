// ConvTranspose of any number of spatial axes: each input element scatters its products with
// the kernel into the output, input position p and kernel position q landing at
// p*stride + q*dilation - pad_begin on each axis (ONNX's definition as the gradient of Conv).
#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {

namespace {

// The output offset input position `in_flat` and kernel position `kernel_flat` land at, or -1
// when it falls outside the output on some axis.
int64_t landing(int64_t in_flat, int64_t kernel_flat,
                const std::vector<passes::TransposedAxis>& axes) {
  int64_t offset = 0;
  int64_t out_stride = 1;
  for (std::size_t d = axes.size(); d-- > 0;) {
    const passes::TransposedAxis& axis = axes[d];
    const int64_t at = (in_flat % axis.in) * axis.stride +
                       (kernel_flat % axis.kernel) * axis.dilation - axis.pad_begin;
    in_flat /= axis.in;
    kernel_flat /= axis.kernel;
    if (at < 0 || at >= axis.out) return -1;
    offset += at * out_stride;
    out_stride *= axis.out;
  }
  return offset;
}

}  // namespace

DenseTensor conv_transpose(const DenseTensor& input, const DenseTensor& weight,
                           const DenseTensor* bias, int64_t groups,
                           const std::vector<passes::TransposedAxis>& axes) {
  const int64_t batch = input.shape[0];
  const int64_t channels = input.shape[1];
  const int64_t group_in = channels / groups;
  const int64_t group_out = weight.shape[1];
  int64_t in_positions = 1, kernel_positions = 1, out_positions = 1;
  Shape shape = {batch, group_out * groups};
  for (const passes::TransposedAxis& axis : axes) {
    in_positions *= axis.in;
    kernel_positions *= axis.kernel;
    out_positions *= axis.out;
    shape.push_back(axis.out);
  }
  DenseTensor result = filled_tensor(shape);
  std::vector<double> sums(result.values.size(), 0.0);
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t group = c / group_in;
      for (int64_t p = 0; p < in_positions; ++p) {
        const double x =
            input.values[static_cast<std::size_t>((n * channels + c) * in_positions + p)];
        for (int64_t q = 0; q < kernel_positions; ++q) {
          const int64_t at = landing(p, q, axes);
          if (at < 0) continue;
          for (int64_t m = 0; m < group_out; ++m) {
            const int64_t out_channel = group * group_out + m;
            const double w =
                weight.values[static_cast<std::size_t>((c * group_out + m) * kernel_positions + q)];
            sums[static_cast<std::size_t>((n * shape[1] + out_channel) * out_positions + at)] +=
                x * w;
          }
        }
      }
    }
  }
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const auto out_channel =
        static_cast<std::size_t>((static_cast<int64_t>(i) / out_positions) % shape[1]);
    result.values[i] =
        static_cast<float>(sums[i] + (bias != nullptr ? bias->values[out_channel] : 0.0));
  }
  return result;
}

}  // namespace polyarch::interp
