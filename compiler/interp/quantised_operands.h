#pragma once
// Tensor-level format conversions the reference interpreter applies to an op's operands when it
// emulates the formats the precision pass gave the op (format_emulation.h says which, when).
// Each returns the values the op then computes with, in fp32: the quantised or rounded value,
// dequantised. Built on the exact scalar primitives of narrow_formats.h.
#include <cstdint>

#include "compiler/interp/dense_tensor.h"
#include "compiler/interp/narrow_formats.h"
#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"

namespace polyarch::interp {

// Every value rounded to `dtype`: fp16 or bf16 to nearest even, fp32 unchanged. Another type is
// an internal error (callers pass float compute types only).
DenseTensor rounded_to(const DenseTensor& tensor, ir::DType dtype);

// Per-tensor fp8 "current scaling" (Transformer Engine's Float8CurrentScaling recipe): scale =
// amax / the format's largest finite (448 for E4M3, 57344 for E5M2), each value x becomes
// round_to_fp8(x / scale, saturating) x scale. A tensor of zeros stays zeros.
DenseTensor fp8_scaled(const DenseTensor& tensor, Fp8Format format);

// The same conversion before dequantisation: the fp8 values round_to_fp8(x / scale) (each an
// fp8 number, held in fp32) and the tensor's scale, as an fp8 GEMM reads its operands.
struct Fp8Tensor {
  DenseTensor values;
  float scale = 0.0f;
};
Fp8Tensor fp8_quantised(const DenseTensor& tensor, Fp8Format format);

// Per-tensor symmetric int8 (dynamic activation quantisation of W8A8, SmoothQuant's
// per-tensor variant): scale = amax / 127 in fp32, codes round(x / scale) in [-127, 127].
DenseTensor int8_scaled(const DenseTensor& tensor);

// How a weight operand's values are laid out as output channels x reduction elements: element
// (channel, i) is at channel * channel_stride + i * reduction_stride.
struct WeightAxes {
  int64_t channels = 0;
  int64_t reduction = 0;
  int64_t channel_stride = 0;
  int64_t reduction_stride = 0;
};

// Weights stored in `format`: along each output channel's reduction elements, groups of
// format.group (the whole channel when 0) quantised with one fp16 scale each; int4 and int8
// symmetric (scale = max |w| / 7 or / 127), fp8 scaled to the format's largest finite then
// rounded (saturating). The values returned are the dequantised weights.
DenseTensor weights_in_format(const DenseTensor& weights, const WeightAxes& axes,
                              const ir::WeightFormat& format);

// A KV cache tensor (K or V) stored in `kv_dtype`, its values runs of `d` consecutive elements
// per token and head (both attention layouts keep a head's d values together): an integer type
// with one fp16 scale per run, symmetric; an fp8 type with one per-tensor scale as fp8_scaled.
DenseTensor kv_in_format(const DenseTensor& cache, ir::DType kv_dtype, int64_t d);

// The fp8 layout of an fp8 element type; nullopt for the others.
std::optional<Fp8Format> fp8_format_of(ir::DType dtype);

}  // namespace polyarch::interp
