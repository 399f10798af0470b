// Resize as ONNX's reference computes it (onnx/backend/test/case/node/resize.py,
// interpolate_nd): separable 1-D interpolation along each axis, where output coordinate x maps
// to x_ori in the input by the coordinate transformation mode, and the value is a weighted sum
// of the input's neighbours of x_ori (edge-clamped), the weights from the mode's coefficients
// at ratio = x_ori - floor(x_ori) (1 where x_ori is an integer, taking the left neighbour set).
#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "compiler/interp/kernels_data.h"

namespace polyarch::interp {

namespace {

struct AxisTaps {
  bool outside = false;  // tf_crop_and_resize past the input: the extrapolation value
  std::vector<std::pair<int64_t, double>> taps;  // input index, weight
};

double source_coordinate(const ResizeOptions& options, int64_t x, int64_t in, double scale,
                         double roi_start, double roi_end) {
  const double output_width = scale * static_cast<double>(in);
  const double at = static_cast<double>(x);
  const std::string& mode = options.coordinate_mode;
  if (mode == "align_corners") {
    return output_width == 1 ? 0.0 : at * static_cast<double>(in - 1) / (output_width - 1);
  }
  if (mode == "asymmetric") return at / scale;
  if (mode == "tf_crop_and_resize") {
    const double span = (roi_end - roi_start) * static_cast<double>(in - 1);
    const double start = roi_start * static_cast<double>(in - 1);
    return (output_width == 1 ? span / 2 : at * span / (output_width - 1)) + start;
  }
  if (mode == "pytorch_half_pixel") return output_width == 1 ? -0.5 : (at + 0.5) / scale - 0.5;
  if (mode == "half_pixel") return (at + 0.5) / scale - 0.5;
  if (mode == "tf_half_pixel_for_nn") return (at + 0.5) / scale;
  throw_bad_input({}, "coordinate_transformation_mode '" + mode + "' is not one ONNX defines");
}

// Coefficients of the neighbours left-1, left, left+1, left+2 (cubic) or left, left+1.
std::vector<double> coefficients(const ResizeOptions& options, double ratio, bool integral) {
  if (options.mode == "cubic") {
    const double a = options.cubic_coeff_a;
    const auto outer = [a](double t) { return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a; };
    const auto inner = [a](double t) { return ((a + 2) * t - (a + 3)) * t * t + 1; };
    return {outer(ratio + 1), inner(ratio), inner(1 - ratio), outer(2 - ratio)};
  }
  if (options.mode == "linear") return {1 - ratio, ratio};
  const std::string& rounding = options.nearest_mode;
  if (integral) return {0, 1};
  if (rounding == "round_prefer_floor") return {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};
  if (rounding == "round_prefer_ceil") return {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
  if (rounding == "floor") return {1, 0};
  if (rounding == "ceil") return {0, 1};
  throw_bad_input({}, "nearest_mode '" + rounding + "' is not one ONNX defines");
}

AxisTaps axis_taps(const ResizeOptions& options, int64_t x, int64_t in, double scale,
                   double roi_start, double roi_end) {
  AxisTaps result;
  const double x_ori = source_coordinate(options, x, in, scale, roi_start, roi_end);
  if (options.coordinate_mode == "tf_crop_and_resize" &&
      (x_ori < 0 || x_ori > static_cast<double>(in - 1))) {
    result.outside = true;
    return result;
  }
  const double floor_ori = std::floor(x_ori);
  const bool integral = x_ori == floor_ori;
  // At an integer the reference takes ratio 1 against the neighbours one to the left.
  const double ratio = integral ? 1.0 : x_ori - floor_ori;
  const auto left = static_cast<int64_t>(floor_ori) - (integral ? 1 : 0);
  std::vector<double> weights = coefficients(options, ratio, integral);
  const int64_t first = left - (weights.size() == 4 ? 1 : 0);
  if (options.exclude_outside) {
    double total = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      const int64_t index = first + static_cast<int64_t>(i);
      if (index < 0 || index >= in) weights[i] = 0;
      total += weights[i];
    }
    for (double& weight : weights) weight /= total;
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] == 0) continue;
    const int64_t index = std::clamp<int64_t>(first + static_cast<int64_t>(i), 0, in - 1);
    result.taps.emplace_back(index, weights[i]);
  }
  return result;
}

}  // namespace

DenseTensor resize(const DenseTensor& input, const Shape& output_shape,
                   const std::vector<double>& scales, const std::vector<double>& roi,
                   const ResizeOptions& options) {
  const std::size_t rank = input.shape.size();
  // Per axis and output coordinate: the taps.
  std::vector<std::vector<AxisTaps>> axes(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    const double roi_start = roi.size() == 2 * rank ? roi[d] : 0.0;
    const double roi_end = roi.size() == 2 * rank ? roi[d + rank] : 1.0;
    for (int64_t x = 0; x < output_shape[d]; ++x) {
      axes[d].push_back(axis_taps(options, x, input.shape[d], scales[d], roi_start, roi_end));
    }
  }
  const std::vector<int64_t> strides = row_major_strides(input.shape);
  DenseTensor result = filled_tensor(output_shape);
  std::vector<int64_t> coordinate(rank, 0);
  for (int64_t flat = 0; flat < result.size(); ++flat) {
    int64_t rest = flat;
    bool outside = false;
    for (std::size_t d = rank; d-- > 0;) {
      coordinate[d] = rest % output_shape[d];
      rest /= output_shape[d];
      outside = outside || axes[d][static_cast<std::size_t>(coordinate[d])].outside;
    }
    if (outside) {
      result.values[static_cast<std::size_t>(flat)] = options.extrapolation_value;
      continue;
    }
    // The weighted sum over every combination of the axes' taps.
    double total = 0;
    std::vector<std::size_t> pick(rank, 0);
    while (true) {
      double weight = 1;
      int64_t offset = 0;
      for (std::size_t d = 0; d < rank; ++d) {
        const auto& tap = axes[d][static_cast<std::size_t>(coordinate[d])].taps[pick[d]];
        offset += tap.first * strides[d];
        weight *= tap.second;
      }
      total += weight * input.values[static_cast<std::size_t>(offset)];
      std::size_t d = rank;
      while (d-- > 0) {
        if (++pick[d] < axes[d][static_cast<std::size_t>(coordinate[d])].taps.size()) break;
        pick[d] = 0;
      }
      if (d == static_cast<std::size_t>(-1)) break;
    }
    result.values[static_cast<std::size_t>(flat)] = static_cast<float>(total);
  }
  return result;
}

}  // namespace polyarch::interp
