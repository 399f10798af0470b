// The transforms as their definitions sum (no FFT): the node tests' signals are short, and the
// direct sum in double precision is exact to well within ONNX's tolerance.
#include <cmath>
#include <numbers>

#include "compiler/interp/kernels_products.h"

namespace polyarch::interp {

namespace {

struct Complex {
  double re = 0.0;
  double im = 0.0;
};

// The first `bins` coefficients of the `length`-point DFT of `samples` (zero past their end).
std::vector<Complex> transform(const std::vector<Complex>& samples, int64_t length, int64_t bins,
                               bool inverse) {
  std::vector<Complex> out(static_cast<std::size_t>(bins));
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < bins; ++k) {
    Complex sum;
    for (int64_t j = 0; j < length && j < static_cast<int64_t>(samples.size()); ++j) {
      // j*k mod length keeps the angle small, so the cosine and sine stay exact.
      const double angle =
          sign * 2.0 * std::numbers::pi * static_cast<double>((j * k) % length) / double(length);
      const Complex& x = samples[static_cast<std::size_t>(j)];
      sum.re += x.re * std::cos(angle) - x.im * std::sin(angle);
      sum.im += x.re * std::sin(angle) + x.im * std::cos(angle);
    }
    if (inverse) {
      sum.re /= double(length);
      sum.im /= double(length);
    }
    out[static_cast<std::size_t>(k)] = sum;
  }
  return out;
}

}  // namespace

DenseTensor dft(const DenseTensor& input, int64_t axis, int64_t length, int64_t bins,
                bool inverse) {
  const Shape& shape = input.shape;
  const int64_t components = shape.back();
  const auto axis_index = static_cast<std::size_t>(axis);
  const int64_t outer = extent(shape, 0, axis_index);
  const int64_t n = shape[axis_index];
  const int64_t inner = extent(shape, axis_index + 1, shape.size() - 1);
  Shape result_shape = shape;
  result_shape[axis_index] = bins;
  result_shape.back() = 2;
  DenseTensor result = filled_tensor(result_shape);
  std::vector<Complex> samples(static_cast<std::size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const auto at = static_cast<std::size_t>(((o * n + j) * inner + i) * components);
        samples[static_cast<std::size_t>(j)] = {input.values[at],
                                                components == 2 ? input.values[at + 1] : 0.0f};
      }
      const std::vector<Complex> coefficients = transform(samples, length, bins, inverse);
      for (int64_t k = 0; k < bins; ++k) {
        const auto at = static_cast<std::size_t>(((o * bins + k) * inner + i) * 2);
        result.values[at] = static_cast<float>(coefficients[static_cast<std::size_t>(k)].re);
        result.values[at + 1] = static_cast<float>(coefficients[static_cast<std::size_t>(k)].im);
      }
    }
  }
  return result;
}

DenseTensor stft(const DenseTensor& signal, int64_t frame_step, const DenseTensor* window,
                 int64_t frame_length, int64_t bins) {
  const int64_t batch = signal.shape[0];
  const int64_t length = signal.shape[1];
  const int64_t components = signal.shape[2];
  const int64_t frames = (length - frame_length) / frame_step + 1;
  DenseTensor result = filled_tensor({batch, frames, bins, 2});
  std::vector<Complex> samples(static_cast<std::size_t>(frame_length));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t f = 0; f < frames; ++f) {
      for (int64_t j = 0; j < frame_length; ++j) {
        const auto at = static_cast<std::size_t>((b * length + f * frame_step + j) * components);
        const double weight =
            window != nullptr ? double{window->values[static_cast<std::size_t>(j)]} : 1.0;
        samples[static_cast<std::size_t>(j)] = {
            signal.values[at] * weight, components == 2 ? signal.values[at + 1] * weight : 0.0};
      }
      const std::vector<Complex> coefficients = transform(samples, frame_length, bins, false);
      for (int64_t k = 0; k < bins; ++k) {
        const auto at = static_cast<std::size_t>(((b * frames + f) * bins + k) * 2);
        result.values[at] = static_cast<float>(coefficients[static_cast<std::size_t>(k)].re);
        result.values[at + 1] = static_cast<float>(coefficients[static_cast<std::size_t>(k)].im);
      }
    }
  }
  return result;
}

// ONNX's definitions (opset 17): Hann 0.5 - 0.5 cos(2 pi n / N); Hamming alpha - beta cos(...)
// with alpha = 25/46, beta = 21/46; Blackman 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N).
DenseTensor cosine_window(const std::string& kind, int64_t size, bool periodic) {
  DenseTensor result = filled_tensor({size});
  const double denominator = static_cast<double>(periodic ? size : size - 1);
  for (int64_t n = 0; n < size; ++n) {
    const double phase = 2.0 * std::numbers::pi * static_cast<double>(n) / denominator;
    double value = 0.0;
    if (kind == "hann") {
      value = 0.5 - 0.5 * std::cos(phase);
    } else if (kind == "hamming") {
      value = 25.0 / 46.0 - 21.0 / 46.0 * std::cos(phase);
    } else {
      value = 0.42 - 0.5 * std::cos(phase) + 0.08 * std::cos(2.0 * phase);
    }
    result.values[static_cast<std::size_t>(n)] = static_cast<float>(value);
  }
  return result;
}

}  // namespace polyarch::interp
