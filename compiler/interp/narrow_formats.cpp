#include "compiler/interp/narrow_formats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "base/error.h"

namespace polyarch::interp {

namespace {

struct MinifloatLayout {
  int mantissa_bits = 0;
  int bias = 0;
  int min_normal_exponent = 0;  // of the value: 2^(1 - bias)
  bool has_infinity = false;
};

MinifloatLayout fp8_layout(Fp8Format format) {
  return format == Fp8Format::kE4M3 ? MinifloatLayout{3, 7, -6, false}
                                    : MinifloatLayout{2, 15, -14, true};
}

// The nearest value with `mantissa_bits` bits after the leading one and exponents down to
// `min_normal_exponent` (subnormals below it), the exponent range unbounded above: `magnitude`
// divided by its binade's step is exact (a power of two), so nearbyint rounds it once, ties to
// even in the default rounding mode.
float round_magnitude(float magnitude, int mantissa_bits, int min_normal_exponent) {
  if (magnitude == 0.0f) return 0.0f;
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
  const float step = std::ldexp(1.0f, std::max(exponent - 1, min_normal_exponent) - mantissa_bits);
  return std::nearbyint(magnitude / step) * step;
}

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

}  // namespace

float fp8_max_finite(Fp8Format format) { return format == Fp8Format::kE4M3 ? 448.0f : 57344.0f; }

float round_to_fp8(float x, Fp8Format format, Fp8Overflow overflow) {
  if (std::isnan(x)) return x;
  const MinifloatLayout layout = fp8_layout(format);
  const float max_finite = fp8_max_finite(format);
  const float magnitude = std::isinf(x) ? kInfinity
                                        : round_magnitude(std::fabs(x), layout.mantissa_bits,
                                                          layout.min_normal_exponent);
  if (magnitude <= max_finite) return std::copysign(magnitude, x);
  if (overflow == Fp8Overflow::kSaturate) return std::copysign(max_finite, x);
  return layout.has_infinity ? std::copysign(kInfinity, x) : kNan;
}

uint8_t fp8_code(float x, Fp8Format format, Fp8Overflow overflow) {
  const float rounded = round_to_fp8(x, format, overflow);
  const uint8_t sign = std::signbit(std::isnan(rounded) ? x : rounded) ? 0x80 : 0x00;
  if (std::isnan(rounded)) return sign | 0x7F;
  const MinifloatLayout layout = fp8_layout(format);
  const int exponent_field_max = (1 << (7 - layout.mantissa_bits)) - 1;
  if (std::isinf(rounded))
    return sign | static_cast<uint8_t>(exponent_field_max << layout.mantissa_bits);
  const float magnitude = std::fabs(rounded);
  const float min_normal = std::ldexp(1.0f, layout.min_normal_exponent);
  if (magnitude < min_normal) {  // subnormal (or zero): exponent field 0
    const float step = std::ldexp(1.0f, layout.min_normal_exponent - layout.mantissa_bits);
    return sign | static_cast<uint8_t>(magnitude / step);
  }
  int exponent = 0;
  const float fraction = std::frexp(magnitude, &exponent);  // in [0.5, 1)
  const int exponent_field = exponent - 1 + layout.bias;
  const auto mantissa =
      static_cast<int>((fraction * 2.0f - 1.0f) * static_cast<float>(1 << layout.mantissa_bits));
  return sign | static_cast<uint8_t>((exponent_field << layout.mantissa_bits) | mantissa);
}

float fp8_value(uint8_t code, Fp8Format format) {
  const MinifloatLayout layout = fp8_layout(format);
  const float sign = (code & 0x80) != 0 ? -1.0f : 1.0f;
  const int exponent_field = (code & 0x7F) >> layout.mantissa_bits;
  const int mantissa = code & ((1 << layout.mantissa_bits) - 1);
  const int exponent_field_max = (1 << (7 - layout.mantissa_bits)) - 1;
  if (exponent_field == exponent_field_max) {
    if (layout.has_infinity) return mantissa == 0 ? sign * kInfinity : kNan;
    if (mantissa == (1 << layout.mantissa_bits) - 1) return kNan;  // E4M3's S.1111.111
  }
  if (exponent_field == 0) {
    return sign * std::ldexp(static_cast<float>(mantissa),
                             layout.min_normal_exponent - layout.mantissa_bits);
  }
  const float significand =
      1.0f + static_cast<float>(mantissa) / static_cast<float>(1 << layout.mantissa_bits);
  return sign * std::ldexp(significand, exponent_field - layout.bias);
}

float round_to_fp16(float x) {
  if (!std::isfinite(x)) return x;
  const float magnitude = std::fabs(x);
  // Halfway past the largest finite 65504 rounds to infinity.
  if (magnitude >= 65520.0f) return std::copysign(kInfinity, x);
  return std::copysign(round_magnitude(magnitude, 10, -14), x);
}

float round_to_bf16(float x) {
  if (std::isnan(x)) return x;
  // bf16 is fp32 with the low 16 bits cut: adding half a bf16 step (less one, plus the kept
  // lowest bit for ties to even) and truncating rounds to nearest even. A carry out of the
  // mantissa moves to the next binade, and out of the largest finite into infinity's code.
  uint32_t bits = std::bit_cast<uint32_t>(x);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return std::bit_cast<float>(bits & 0xFFFF0000u);
}

namespace {

IntGroups quantize_symmetric(std::span<const float> values, int64_t group, ScaleType scale_type,
                             float largest_code, float smallest_code, const char* format) {
  if (group < 1) {
    throw_runtime({}, std::string(format) + " quantisation needs a group of at least one value");
  }
  IntGroups result;
  result.group = group;
  result.codes.reserve(values.size());
  const auto count = static_cast<int64_t>(values.size());
  for (int64_t begin = 0; begin < count; begin += group) {
    const int64_t end = std::min(begin + group, count);
    float largest = 0.0f;
    for (int64_t i = begin; i < end; ++i) largest = std::max(largest, std::fabs(values[i]));
    float scale = largest / largest_code;
    if (scale_type == ScaleType::kFp16) scale = round_to_fp16(scale);
    result.scales.push_back(scale);
    for (int64_t i = begin; i < end; ++i) {
      // An fp16-rounded scale may sit just below max/largest_code: the clamp keeps the code.
      const float code =
          scale > 0.0f ? std::clamp(std::nearbyint(values[i] / scale), smallest_code, largest_code)
                       : 0.0f;
      result.codes.push_back(static_cast<int8_t>(code));
    }
  }
  return result;
}

}  // namespace

IntGroups quantize_int4(std::span<const float> values, int64_t group, ScaleType scale_type) {
  return quantize_symmetric(values, group, scale_type, 7.0f, -8.0f, "int4");
}

IntGroups quantize_int8(std::span<const float> values, int64_t group, ScaleType scale_type) {
  return quantize_symmetric(values, group, scale_type, 127.0f, -127.0f, "int8");
}

std::vector<float> dequantize_groups(const IntGroups& groups) {
  std::vector<float> values;
  values.reserve(groups.codes.size());
  for (std::size_t i = 0; i < groups.codes.size(); ++i) {
    values.push_back(static_cast<float>(groups.codes[i]) *
                     groups.scales[i / static_cast<std::size_t>(groups.group)]);
  }
  return values;
}

std::vector<float> dequantize_int4(const IntGroups& groups) { return dequantize_groups(groups); }

}  // namespace polyarch::interp
