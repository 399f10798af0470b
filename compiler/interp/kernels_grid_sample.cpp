// GridSample (opset 16) as ONNX Runtime computes it: each output pixel samples the input at the
// grid's normalized (x, y) in [-1, 1], by nearest, bilinear or bicubic (A = -0.75) interpolation,
// with pixels outside the input zero, clamped to the border, or reflected.
#include <algorithm>
#include <array>
#include <cmath>

#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {

namespace {

// The sampled plane and where its coordinates may lie: [-0.5, size - 0.5] (pixel edges), or
// [0, size - 1] (pixel centres) with align_corners.
struct Plane {
  const float* values;
  int64_t height;
  int64_t width;
  const GridSampleOptions& options;

  double low(int64_t) const { return options.align_corners ? 0.0 : -0.5; }
  double high(int64_t size) const {
    return options.align_corners ? double(size - 1) : double(size) - 0.5;
  }
};

// Folds a coordinate outside [low, high] back inside, as a mirror would.
double reflect(double x, double low, double high) {
  const double range = high - low;
  if (range <= 0) return low;
  if (x < low) {
    const double distance = low - x;
    const auto folds = static_cast<int64_t>(distance / range);
    const double rest = distance - double(folds) * range;
    return folds % 2 == 0 ? low + rest : high - rest;
  }
  if (x > high) {
    const double distance = x - high;
    const auto folds = static_cast<int64_t>(distance / range);
    const double rest = distance - double(folds) * range;
    return folds % 2 == 0 ? high - rest : low + rest;
  }
  return x;
}

double pixel(const Plane& plane, int64_t row, int64_t column) {
  const std::string& padding = plane.options.padding_mode;
  if (padding == "border") {
    row = std::clamp<int64_t>(row, 0, plane.height - 1);
    column = std::clamp<int64_t>(column, 0, plane.width - 1);
  } else if (padding == "reflection") {
    row = static_cast<int64_t>(
        reflect(double(row), plane.low(plane.height), plane.high(plane.height)));
    column = static_cast<int64_t>(
        reflect(double(column), plane.low(plane.width), plane.high(plane.width)));
  }
  if (row < 0 || row >= plane.height || column < 0 || column >= plane.width) return 0.0;
  return plane.values[row * plane.width + column];
}

// Keys' cubic convolution weights of the four taps around a fraction t, with A = -0.75.
std::array<double, 4> cubic_weights(double t) {
  constexpr double a = -0.75;
  const auto near = [](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  const auto far = [](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

double sample(const Plane& plane, double x, double y) {
  const std::string& mode = plane.options.mode;
  if (mode == "nearest") {
    x = std::nearbyint(x);
    y = std::nearbyint(y);
  }
  // Coordinates outside the input move inside first for border and reflection padding.
  if (plane.options.padding_mode == "border") {
    x = std::clamp(x, 0.0, double(plane.width - 1));
    y = std::clamp(y, 0.0, double(plane.height - 1));
  } else if (plane.options.padding_mode == "reflection") {
    x = reflect(x, plane.low(plane.width), plane.high(plane.width));
    y = reflect(y, plane.low(plane.height), plane.high(plane.height));
  }
  if (mode == "nearest") return pixel(plane, static_cast<int64_t>(y), static_cast<int64_t>(x));
  if (mode == "bilinear") {
    const auto x1 = static_cast<int64_t>(std::floor(x));
    const auto y1 = static_cast<int64_t>(std::floor(y));
    const double dx = x - double(x1);
    const double dy = y - double(y1);
    return (1 - dy) * ((1 - dx) * pixel(plane, y1, x1) + dx * pixel(plane, y1, x1 + 1)) +
           dy * ((1 - dx) * pixel(plane, y1 + 1, x1) + dx * pixel(plane, y1 + 1, x1 + 1));
  }
  const auto x0 = static_cast<int64_t>(std::floor(x)) - 1;
  const auto y0 = static_cast<int64_t>(std::floor(y)) - 1;
  const std::array<double, 4> wx = cubic_weights(x - double(x0) - 1);
  const std::array<double, 4> wy = cubic_weights(y - double(y0) - 1);
  double value = 0.0;
  for (int64_t i = 0; i < 4; ++i) {
    double row = 0.0;
    for (int64_t j = 0; j < 4; ++j) row += wx[std::size_t(j)] * pixel(plane, y0 + i, x0 + j);
    value += wy[std::size_t(i)] * row;
  }
  return value;
}

// A normalized coordinate in [-1, 1] as a pixel position along an axis of `size`.
double denormalized(double coordinate, int64_t size, bool align_corners) {
  return align_corners ? (coordinate + 1) / 2 * double(size - 1)
                       : ((coordinate + 1) * double(size) - 1) / 2;
}

}  // namespace

DenseTensor grid_sample(const DenseTensor& input, const DenseTensor& grid,
                        const GridSampleOptions& options) {
  const int64_t batch = input.shape[0];
  const int64_t channels = input.shape[1];
  const int64_t height = input.shape[2];
  const int64_t width = input.shape[3];
  const int64_t out_height = grid.shape[1];
  const int64_t out_width = grid.shape[2];
  DenseTensor result = filled_tensor({batch, channels, out_height, out_width});
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      const Plane plane{input.values.data() + (n * channels + c) * height * width, height, width,
                        options};
      for (int64_t at = 0; at < out_height * out_width; ++at) {
        const float* point = grid.values.data() + (n * out_height * out_width + at) * 2;
        const double x = denormalized(point[0], width, options.align_corners);
        const double y = denormalized(point[1], height, options.align_corners);
        result.values[static_cast<std::size_t>((n * channels + c) * out_height * out_width + at)] =
            static_cast<float>(sample(plane, x, y));
      }
    }
  }
  return result;
}

}  // namespace polyarch::interp
