#pragma once
// The digital side of a crossbar MVM: weights and inputs as integer codes, how a weight code
// spreads over cells (bit slices, offset or differential sign) and how an input code spreads
// over DAC slices. The ideal quantised GEMM computed from these codes is what an analog MVM
// with every effect off must reproduce exactly. Equations: archs/crossbar/README.md.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "archs/crossbar/params.h"

namespace polyarch::archs::crossbar {

// Symmetric per-output-column quantisation: code = round(w / scale), |code| <= 2^(bits-1) - 1,
// scale = max |w| of the column / (2^(bits-1) - 1) (digital rescaling after the shift-and-add).
struct QuantizedWeights {
  int64_t k = 0;
  int64_t n = 0;
  std::vector<int64_t> codes;  // [k x n]
  std::vector<double> scales;  // [n]
};
QuantizedWeights quantize_weights(std::span<const float> weights, int64_t k, int64_t n,
                                  int64_t weight_bits);

// Per-tensor quantisation of one layer's input vectors (range taken from the values, an ideal
// calibration): unsigned codes in [0, 2^bits - 1] when no input is negative (after a ReLU),
// otherwise signed codes in [-(2^(bits-1) - 1), 2^(bits-1) - 1].
struct QuantizedInputs {
  int64_t m = 0;
  int64_t k = 0;
  std::vector<int64_t> codes;  // [m x k]
  double scale = 1.0;
  bool is_signed = false;
};
QuantizedInputs quantize_inputs(std::span<const float> activations, int64_t m, int64_t k,
                                int64_t input_bits);

// One physical column of a weight: the cell level it holds is bits [shift, shift + bits_per_cell)
// of the weight's stored value (the code plus the offset, or the code's positive or negative
// part); its column sum enters the output with weight polarity * 2^shift.
struct CellColumn {
  int64_t shift = 0;
  int64_t polarity = 1;
};

struct CellLayout {
  int64_t bits_per_cell = 1;
  int64_t level_max = 1;  // 2^bits_per_cell - 1
  bool differential = false;
  int64_t offset = 0;               // 2^(weight_bits-1) with the offset encoding, else 0
  std::vector<CellColumn> columns;  // cells_per_weight of them

  int64_t cells_per_weight() const { return static_cast<int64_t>(columns.size()); }
  // The level of cell `column` for weight `code`.
  int64_t level(int64_t code, std::size_t column) const;
};
CellLayout cell_layout(const CrossbarParams& params);

// One DAC slice of an input code in one phase: the phase's part of the code (the code itself,
// or for signed inputs its positive or its negative part), digit = (part >> first_bit) &
// (2^bits - 1), entering the output with weight `factor` (+-2^first_bit: negative in the phase
// that drives the negative inputs' magnitudes).
struct InputSlice {
  int64_t first_bit = 0;
  int64_t bits = 1;
  double factor = 1.0;
  int64_t phase = 1;  // +1: non-negative codes; -1: the magnitudes of negative codes

  int64_t digit(int64_t code) const {
    const int64_t part = phase > 0 ? std::max<int64_t>(code, 0) : std::max<int64_t>(-code, 0);
    return (part >> first_bit) & ((int64_t{1} << bits) - 1);
  }
};
// Unsigned inputs: ceil(input_bits / dac_bits) slices from the least significant bit. Signed
// inputs are driven in sign-magnitude, two phases of ceil((input_bits - 1) / dac_bits) slices:
// the rows of positive inputs, then those of negative ones (the digital side subtracts the
// second). Two's-complement slices would turn a small negative input into ones in every slice,
// large column sums whose conversion errors do not cancel.
std::vector<InputSlice> input_slices(int64_t input_bits, int64_t dac_bits, bool is_signed);

// scale_x * scale_n * sum_k x_mk w_kn over the codes, in double, rounded once to float: the
// result every analog MVM with its effects off equals.
std::vector<float> ideal_quantized_gemm(const QuantizedInputs& inputs,
                                        const QuantizedWeights& weights);

// The one rounding from an integer-domain accumulator to the output value, shared by the ideal
// GEMM and the analog model so that "exactly equal" means bit-equal.
inline float dequantize(double accumulator, double input_scale, double weight_scale) {
  return static_cast<float>(input_scale * weight_scale * accumulator);
}

}  // namespace polyarch::archs::crossbar
