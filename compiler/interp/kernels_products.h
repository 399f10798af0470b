#pragma once
// Einsum and ONNX's signal operators, computed directly in double precision.
#include <string>

#include "compiler/interp/dense_tensor.h"
#include "compiler/passes/einsum_equation.h"

namespace polyarch::interp {

// Einsum: every result element sums, over the summed labels, the product of the operands'
// elements those labels (and the result's) pick.
DenseTensor einsum(const std::vector<const DenseTensor*>& operands,
                   const passes::EinsumEquation& equation);

// DFT along `axis` of [batch, ..., n, 1 or 2] (real or complex) signals, of `length` samples
// (zero-padded or cut), e^(-2*pi*i*j*k/length) (e^(+...) / length inverse); `bins` results
// (length / 2 + 1 when onesided), as [..., bins, 2].
DenseTensor dft(const DenseTensor& input, int64_t axis, int64_t length, int64_t bins, bool inverse);

// STFT of [batch, length, 1 or 2] signals: frames of `frame_length` samples every `frame_step`,
// each multiplied by `window` (none: all ones) and transformed, `bins` per frame.
DenseTensor stft(const DenseTensor& signal, int64_t frame_step, const DenseTensor* window,
                 int64_t frame_length, int64_t bins);

// The cosine-sum windows of ONNX's HannWindow, HammingWindow and BlackmanWindow ("hann",
// "hamming", "blackman"): `size` values, periodic (denominator size) or symmetric (size - 1).
DenseTensor cosine_window(const std::string& kind, int64_t size, bool periodic);

}  // namespace polyarch::interp
