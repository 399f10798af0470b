// fp8 (E4M3, E5M2) and grouped int4 against encodings derived by hand from the formats'
// definitions (OCP OFP8 2023, Table 1): sign, exponent field, mantissa field, for the edge
// cases of each format: zero, the smallest subnormal, ties on both sides of a subnormal and a
// normal step, the largest finite, the tie just past it, infinity and NaN.
#include "compiler/interp/narrow_formats.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace polyarch::interp {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

uint8_t e4m3(float x, Fp8Overflow overflow = Fp8Overflow::kSaturate) {
  return fp8_code(x, Fp8Format::kE4M3, overflow);
}
uint8_t e5m2(float x, Fp8Overflow overflow = Fp8Overflow::kSaturate) {
  return fp8_code(x, Fp8Format::kE5M2, overflow);
}

TEST(Fp8E4M3, EncodesTheFormatsLandmarks) {
  EXPECT_EQ(e4m3(0.0f), 0x00);
  EXPECT_EQ(e4m3(-0.0f), 0x80);
  EXPECT_EQ(e4m3(1.0f), 0x38);           // 0 0111 000: exponent 7 - bias 7
  EXPECT_EQ(e4m3(-2.0f), 0xC0);          // 1 1000 000
  EXPECT_EQ(e4m3(240.0f), 0x77);         // 1.875 x 2^7: 0 1110 111
  EXPECT_EQ(e4m3(448.0f), 0x7E);         // 1.75 x 2^8, the largest finite: 0 1111 110
  EXPECT_EQ(e4m3(0.015625f), 0x08);      // 2^-6, the smallest normal
  EXPECT_EQ(e4m3(0.013671875f), 0x07);   // 7 x 2^-9, the largest subnormal
  EXPECT_EQ(e4m3(0.001953125f), 0x01);   // 2^-9, the smallest subnormal
  EXPECT_EQ(fp8_max_finite(Fp8Format::kE4M3), 448.0f);
}

TEST(Fp8E4M3, RoundsToNearestTiesToEven) {
  EXPECT_EQ(e4m3(1.0625f), 0x38);        // halfway 1 and 1.125: to 1 (mantissa 000)
  EXPECT_EQ(e4m3(1.0626f), 0x39);        // just above halfway: 1.125
  EXPECT_EQ(e4m3(1.1875f), 0x3A);        // halfway 1.125 and 1.25: to 1.25 (mantissa 010)
  EXPECT_EQ(e4m3(std::ldexp(1.0f, -10)), 0x00);     // half the smallest subnormal: to 0
  EXPECT_EQ(e4m3(std::ldexp(3.0f, -10)), 0x02);     // 1.5 subnormal steps: to 2 steps
  EXPECT_EQ(e4m3(std::ldexp(5.0f, -10)), 0x02);     // 2.5 steps: to 2 steps
  EXPECT_EQ(e4m3(std::ldexp(15.0f, -10)), 0x08);    // 7.5 steps: up into the normals
  EXPECT_EQ(e4m3(464.0f), 0x7E);         // halfway 448 and 480 (not finite): to 448, even
}

TEST(Fp8E4M3, OverflowSaturatesOrIsNanSinceE4M3HasNoInfinity) {
  EXPECT_EQ(e4m3(465.0f), 0x7E);
  EXPECT_EQ(e4m3(-1e6f), 0xFE);
  EXPECT_EQ(e4m3(kInf), 0x7E);
  EXPECT_EQ(e4m3(465.0f, Fp8Overflow::kOverflow), 0x7F);
  EXPECT_EQ(e4m3(-kInf, Fp8Overflow::kOverflow), 0xFF);
  EXPECT_EQ(e4m3(464.0f, Fp8Overflow::kOverflow), 0x7E);  // rounds to a finite: no overflow
  EXPECT_EQ(e4m3(kNan), 0x7F);
  EXPECT_TRUE(std::isnan(round_to_fp8(500.0f, Fp8Format::kE4M3, Fp8Overflow::kOverflow)));
}

TEST(Fp8E5M2, EncodesTheFormatsLandmarks) {
  EXPECT_EQ(e5m2(1.0f), 0x3C);           // 0 01111 00
  EXPECT_EQ(e5m2(-1.5f), 0xBE);          // 1 01111 10
  EXPECT_EQ(e5m2(57344.0f), 0x7B);       // 1.75 x 2^15: 0 11110 11
  EXPECT_EQ(e5m2(std::ldexp(1.0f, -14)), 0x04);  // the smallest normal
  EXPECT_EQ(e5m2(std::ldexp(1.0f, -16)), 0x01);  // the smallest subnormal
  EXPECT_EQ(e5m2(std::ldexp(3.0f, -16)), 0x03);  // the largest subnormal
  EXPECT_EQ(fp8_max_finite(Fp8Format::kE5M2), 57344.0f);
}

TEST(Fp8E5M2, RoundsToNearestTiesToEvenAndOverflowsToInfinity) {
  EXPECT_EQ(e5m2(1.125f), 0x3C);         // halfway 1 and 1.25: to 1
  EXPECT_EQ(e5m2(1.375f), 0x3E);         // halfway 1.25 and 1.5: to 1.5
  EXPECT_EQ(e5m2(std::ldexp(1.0f, -17)), 0x00);  // half the smallest subnormal: to 0
  // Halfway 57344 and 65536 rounds to the even 65536, which overflows.
  EXPECT_EQ(e5m2(61440.0f, Fp8Overflow::kOverflow), 0x7C);
  EXPECT_EQ(e5m2(61439.0f, Fp8Overflow::kOverflow), 0x7B);
  EXPECT_EQ(e5m2(61440.0f), 0x7B);
  EXPECT_EQ(e5m2(-kInf), 0xFB);
  EXPECT_EQ(e5m2(-kInf, Fp8Overflow::kOverflow), 0xFC);
  EXPECT_EQ(e5m2(kNan), 0x7F);
}

TEST(Fp8, EveryFiniteCodeDecodesToAValueThatEncodesBackToIt) {
  for (Fp8Format format : {Fp8Format::kE4M3, Fp8Format::kE5M2}) {
    int finite = 0;
    for (int code = 0; code < 256; ++code) {
      const float value = fp8_value(static_cast<uint8_t>(code), format);
      if (!std::isfinite(value)) continue;
      ++finite;
      EXPECT_EQ(fp8_code(value, format), code) << code;
      EXPECT_EQ(round_to_fp8(value, format), value) << code;
    }
    // E4M3: 256 codes less two NaNs; E5M2: less 2 x 3 NaNs and 2 infinities.
    EXPECT_EQ(finite, format == Fp8Format::kE4M3 ? 254 : 248);
  }
  EXPECT_TRUE(std::isnan(fp8_value(0x7F, Fp8Format::kE4M3)));
  EXPECT_EQ(fp8_value(0x7C, Fp8Format::kE5M2), kInf);
  EXPECT_EQ(fp8_value(0x7E, Fp8Format::kE4M3), 448.0f);
}

TEST(Fp16, RoundsTiesToEvenAndOverflowsHalfwayPastTheLargestFinite) {
  EXPECT_EQ(round_to_fp16(1.0f + std::ldexp(1.0f, -11)), 1.0f);  // halfway: to even
  EXPECT_EQ(round_to_fp16(1.0f + std::ldexp(3.0f, -11)), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(round_to_fp16(65504.0f), 65504.0f);
  EXPECT_EQ(round_to_fp16(65519.0f), 65504.0f);
  EXPECT_EQ(round_to_fp16(65520.0f), kInf);
  EXPECT_EQ(round_to_fp16(std::ldexp(1.0f, -25)), 0.0f);  // half the smallest subnormal
}

TEST(Int4Groups, SymmetricScalePerGroupTiesToEvenAndAShortLastGroup) {
  // Group 1: max |x| 3.5, scale 0.5: 3.5 -> 4 (tie to even), -7, 0.5 -> 0, 1.5 -> 2.
  // Group 2: all zero, scale 0. Group 3 (two values): scale 2, 7 -> 3.5 -> 4, -14 -> -7.
  const std::vector<float> values = {1.75f, -3.5f, 0.25f, 0.75f, 0, 0, 0, 0, 7.0f, -14.0f};
  const Int4Groups groups = quantize_int4(values, 4);
  EXPECT_EQ(groups.scales, (std::vector<float>{0.5f, 0.0f, 2.0f}));
  EXPECT_EQ(groups.codes, (std::vector<int8_t>{4, -7, 0, 2, 0, 0, 0, 0, 4, -7}));
  EXPECT_EQ(dequantize_int4(groups),
            (std::vector<float>{2.0f, -3.5f, 0, 1.0f, 0, 0, 0, 0, 8.0f, -14.0f}));
}

TEST(Int4Groups, Fp16ScalesAreRoundedBeforeTheCodesAreComputed) {
  // max |x| = 7 (1 + 2^-12): the fp32 scale 1 + 2^-12 is 1 in fp16 (2^-12 is under half its
  // last place), and the codes are computed with the stored scale 1.
  const float largest = 7.0f * (1.0f + std::ldexp(1.0f, -12));
  const Int4Groups fp16 = quantize_int4(std::vector<float>{largest, 3.0f}, 2, ScaleType::kFp16);
  EXPECT_EQ(fp16.scales, (std::vector<float>{1.0f}));
  EXPECT_EQ(fp16.codes, (std::vector<int8_t>{7, 3}));
  const Int4Groups fp32 = quantize_int4(std::vector<float>{largest, 3.0f}, 2);
  EXPECT_EQ(fp32.scales, (std::vector<float>{largest / 7.0f}));
}

// bf16 is fp32's upper half: each case below is written as the fp32 bit pattern whose low 16
// bits decide the rounding, and the expected bf16 pattern derived by hand.
float from_bits(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bf16_bits(uint32_t bits) {
  return std::bit_cast<uint32_t>(round_to_bf16(from_bits(bits)));
}

TEST(Bf16, RoundsToNearestTiesToEven) {
  EXPECT_EQ(bf16_bits(0x3F808000u), 0x3F800000u);      // 1 + 2^-8: tie, 1.0's last bit is even
  EXPECT_EQ(bf16_bits(0x3F818000u), 0x3F820000u);      // 1 + 3 x 2^-8: tie, up to the even 1 + 2^-6
  EXPECT_EQ(bf16_bits(0x3F808001u), 0x3F810000u);      // just past the tie: up to 1 + 2^-7
  EXPECT_EQ(bf16_bits(0x3F807FFFu), 0x3F800000u);      // just below it: down
  EXPECT_EQ(round_to_bf16(-1.01171875f), -1.015625f);  // -(1 + 3 x 2^-8), same tie negated
  EXPECT_EQ(bf16_bits(0x3FFF8000u), 0x40000000u);  // 2 - 2^-8: the carry moves to the next binade
}

TEST(Bf16, OverflowsToInfinityFromHalfwayPastTheLargestFinite) {
  // Largest finite bf16: 0x7F7F0000 = (2 - 2^-7) x 2^127. Halfway to 2^128 (0x7F7F8000) is a tie
  // whose even neighbour is 0x7F80, infinity's code; fp32's largest finite rounds there too.
  EXPECT_EQ(bf16_bits(0x7F7F7FFFu), 0x7F7F0000u);
  EXPECT_EQ(round_to_bf16(from_bits(0x7F7F8000u)), kInf);
  EXPECT_EQ(round_to_bf16(-std::numeric_limits<float>::max()), -kInf);
  EXPECT_EQ(round_to_bf16(kInf), kInf);
  EXPECT_TRUE(std::isnan(round_to_bf16(kNan)));
  EXPECT_TRUE(std::isnan(round_to_bf16(from_bits(0x7F800001u))));  // a NaN with a low payload
}

TEST(Bf16, SubnormalsRoundOnTheSameGrid) {
  // bf16's smallest subnormal is 2^-133 (0x00010000). Half of it (2^-134) ties to the even 0;
  // 1.5 of it ties up to 2 x 2^-133; fp32's smallest subnormal rounds to zero.
  EXPECT_EQ(bf16_bits(0x00008000u), 0x00000000u);
  EXPECT_EQ(bf16_bits(0x00018000u), 0x00020000u);
  EXPECT_EQ(bf16_bits(0x00000001u), 0x00000000u);
  EXPECT_EQ(bf16_bits(0x00008001u), 0x00010000u);
  EXPECT_EQ(bf16_bits(0x007FFFFFu),
            0x00800000u);  // the largest subnormal up to the smallest normal
}

TEST(Int8Groups, SymmetricRangeOf127WithTiesToEven) {
  // max |x| = 127: scale 1. 0.5 and -0.5 tie to the even 0, 1.5 to 2, 62.5 to 62.
  const std::vector<float> values = {127.0f, -0.5f, 0.5f, 1.5f, -62.5f, -127.0f};
  const IntGroups groups = quantize_int8(values, 6);
  ASSERT_EQ(groups.scales.size(), 1u);
  EXPECT_EQ(groups.scales[0], 1.0f);
  EXPECT_EQ(groups.codes, (std::vector<int8_t>{127, 0, 0, 2, -62, -127}));
  // Two groups of 2: max 254 gives scale 2 (254 -> 127, -3 -> -1.5 -> -2); max 0.0 gives 0.
  const IntGroups pairs = quantize_int8(std::vector<float>{254.0f, -3.0f, 0.0f, 0.0f}, 2);
  EXPECT_EQ(pairs.scales, (std::vector<float>{2.0f, 0.0f}));
  EXPECT_EQ(dequantize_groups(pairs), (std::vector<float>{254.0f, -4.0f, 0.0f, 0.0f}));
}

TEST(Int8Groups, Fp16ScaleOfAThirdIsRoundedFirst) {
  // max 127/3: scale 1/3, in fp16 0x3555 = 1365 x 2^-12 = 0.333251953125 (1/3 = 1365.33 x 2^-12).
  // 127/3 / 0.333251953125 = 127.02... -> code 127, dequantised 42.322998046875.
  const IntGroups groups = quantize_int8(std::vector<float>{127.0f / 3.0f}, 1, ScaleType::kFp16);
  EXPECT_EQ(groups.scales[0], 0.333251953125f);
  EXPECT_EQ(groups.codes[0], 127);
  EXPECT_EQ(dequantize_groups(groups)[0], 42.322998046875f);
}

}  // namespace
}  // namespace polyarch::interp
