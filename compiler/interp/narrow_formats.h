#pragma once
// The narrow number formats of today's inference, emulated exactly in fp32 arithmetic: the two
// 8-bit floating-point formats of the OCP 8-bit Floating Point specification (OFP8, 2023; ONNX's
// FLOAT8E4M3FN and FLOAT8E5M2, what Hopper's and Ada's tensor cores run), and 4-bit integers
// with one scale per group of consecutive values (weight-only quantisation as GPTQ and AWQ store
// it). Every rounding is to nearest, ties to even, as IEEE 754 rounds and both specifications
// require.
#include <cstdint>
#include <span>
#include <vector>

namespace polyarch::interp {

// E4M3: 4 exponent bits (bias 7), 3 mantissa bits, largest finite 448, no infinity; the codes
// S.1111.111 are NaN. E5M2: 5 exponent bits (bias 15), 2 mantissa bits, largest finite 57344,
// infinities and NaNs as IEEE binary16 has them.
enum class Fp8Format { kE4M3, kE5M2 };

// What a value whose rounded magnitude exceeds the largest finite becomes (infinities
// included): the largest finite of its sign (saturate: ONNX Cast's default, PTX's satfinite
// conversions), or the format's own overflow, infinity in E5M2 and NaN in E4M3, which has no
// infinity.
enum class Fp8Overflow { kSaturate, kOverflow };

float fp8_max_finite(Fp8Format format);

// The fp8 value nearest `x`.
float round_to_fp8(float x, Fp8Format format, Fp8Overflow overflow = Fp8Overflow::kSaturate);
// The 8-bit code of round_to_fp8(x): sign, exponent, mantissa from the most significant bit.
// NaN is 0x7F (E4M3's only NaN of that sign, E5M2's quiet NaN) with the sign of `x`.
uint8_t fp8_code(float x, Fp8Format format, Fp8Overflow overflow = Fp8Overflow::kSaturate);
// The value a code stands for (NaN codes give NaN, E5M2's 0x7C/0xFC infinities).
float fp8_value(uint8_t code, Fp8Format format);

// How a group's scale is stored: fp32, or fp16 (as GPTQ and AWQ checkpoints keep it), in which
// case the codes are computed with the fp16-rounded scale that dequantisation will use.
enum class ScaleType { kFp32, kFp16 };

// Signed integer codes with one scale per `group` consecutive values (the last group may be
// shorter): symmetric, scale = max |x| of the group / the largest positive code, so the group's
// largest magnitude is that code and zero is exact. A group of zeros has scale 0 and codes 0.
struct IntGroups {
  int64_t group = 0;
  std::vector<int8_t> codes;
  std::vector<float> scales;  // one per group, as stored (fp16-rounded with ScaleType::kFp16)
};
using Int4Groups = IntGroups;

// int4: codes in [-8, 7], scale = max |x| / 7. int8: codes in [-127, 127] (the symmetric range
// SmoothQuant and TensorRT use, so that -x quantises to -code), scale = max |x| / 127.
// An internal error when `group` < 1.
IntGroups quantize_int4(std::span<const float> values, int64_t group,
                        ScaleType scale_type = ScaleType::kFp32);
IntGroups quantize_int8(std::span<const float> values, int64_t group,
                        ScaleType scale_type = ScaleType::kFp32);
// code x its group's scale, in fp32.
std::vector<float> dequantize_groups(const IntGroups& groups);
std::vector<float> dequantize_int4(const IntGroups& groups);

// The nearest IEEE binary16 value, ties to even; from 65520 on, infinite.
float round_to_fp16(float x);
// The nearest bfloat16 value (fp32's upper 16 bits: 8 exponent bits, 7 mantissa bits), ties to
// even, subnormals included; past the largest finite (1 - 2^-8) x 2^128 rounding reaches infinity.
// NaN stays NaN.
float round_to_bf16(float x);

}  // namespace polyarch::interp
