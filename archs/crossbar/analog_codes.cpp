#include "archs/crossbar/analog_codes.h"

#include <algorithm>
#include <cmath>

#include "base/checked_math.h"

namespace polyarch::archs::crossbar {

namespace {

int64_t round_clamped(double value, int64_t low, int64_t high) {
  return std::clamp(static_cast<int64_t>(std::nearbyint(value)), low, high);
}

}  // namespace

QuantizedWeights quantize_weights(std::span<const float> weights, int64_t k, int64_t n,
                                  int64_t weight_bits) {
  const int64_t code_max = (int64_t{1} << (weight_bits - 1)) - 1;
  QuantizedWeights quantized{k, n, std::vector<int64_t>(weights.size()), std::vector<double>(n)};
  for (int64_t column = 0; column < n; ++column) {
    double largest = 0.0;
    for (int64_t row = 0; row < k; ++row) {
      largest = std::max(largest, std::fabs(double{weights[row * n + column]}));
    }
    // An all-zero column keeps scale 1: its codes are zero either way.
    const double scale = largest > 0.0 ? largest / double(code_max) : 1.0;
    quantized.scales[column] = scale;
    for (int64_t row = 0; row < k; ++row) {
      quantized.codes[row * n + column] =
          round_clamped(weights[row * n + column] / scale, -code_max, code_max);
    }
  }
  return quantized;
}

QuantizedInputs quantize_inputs(std::span<const float> activations, int64_t m, int64_t k,
                                int64_t input_bits) {
  QuantizedInputs quantized{m, k, std::vector<int64_t>(activations.size()), 1.0, false};
  double largest = 0.0;
  for (float value : activations) {
    largest = std::max(largest, std::fabs(double{value}));
    if (value < 0.0f) quantized.is_signed = true;
  }
  const int64_t code_max =
      quantized.is_signed ? (int64_t{1} << (input_bits - 1)) - 1 : (int64_t{1} << input_bits) - 1;
  quantized.scale = largest > 0.0 ? largest / double(code_max) : 1.0;
  const int64_t code_min = quantized.is_signed ? -code_max : 0;
  for (std::size_t i = 0; i < activations.size(); ++i) {
    quantized.codes[i] = round_clamped(activations[i] / quantized.scale, code_min, code_max);
  }
  return quantized;
}

int64_t CellLayout::level(int64_t code, std::size_t column) const {
  const CellColumn& cell = columns[column];
  int64_t stored = code + offset;
  if (differential)
    stored = cell.polarity > 0 ? std::max<int64_t>(code, 0) : std::max<int64_t>(-code, 0);
  return (stored >> cell.shift) & level_max;
}

CellLayout cell_layout(const CrossbarParams& params) {
  CellLayout layout;
  layout.bits_per_cell = params.cell.bits_per_cell;
  layout.level_max = (int64_t{1} << layout.bits_per_cell) - 1;
  layout.differential = params.differential;
  layout.offset = params.differential ? 0 : int64_t{1} << (params.weight_bits - 1);
  const int64_t slices = ceil_div(params.weight_bits, params.cell.bits_per_cell);
  for (int64_t polarity :
       params.differential ? std::vector<int64_t>{1, -1} : std::vector<int64_t>{1}) {
    for (int64_t slice = 0; slice < slices; ++slice) {
      layout.columns.push_back({slice * layout.bits_per_cell, polarity});
    }
  }
  return layout;
}

std::vector<InputSlice> input_slices(int64_t input_bits, int64_t dac_bits, bool is_signed) {
  std::vector<InputSlice> slices;
  const int64_t magnitude_bits = is_signed ? input_bits - 1 : input_bits;
  for (int64_t phase : is_signed ? std::vector<int64_t>{1, -1} : std::vector<int64_t>{1}) {
    for (int64_t first = 0; first < magnitude_bits; first += dac_bits) {
      slices.push_back({first, std::min(dac_bits, magnitude_bits - first),
                        double(phase) * std::ldexp(1.0, int(first)), phase});
    }
  }
  return slices;
}

std::vector<float> ideal_quantized_gemm(const QuantizedInputs& inputs,
                                        const QuantizedWeights& weights) {
  std::vector<float> result(static_cast<std::size_t>(inputs.m * weights.n));
  for (int64_t row = 0; row < inputs.m; ++row) {
    for (int64_t column = 0; column < weights.n; ++column) {
      int64_t sum = 0;
      for (int64_t inner = 0; inner < inputs.k; ++inner) {
        sum += inputs.codes[row * inputs.k + inner] * weights.codes[inner * weights.n + column];
      }
      result[row * weights.n + column] =
          dequantize(double(sum), inputs.scale, weights.scales[column]);
    }
  }
  return result;
}

}  // namespace polyarch::archs::crossbar
