// The format conversions of an op's operands against values derived by hand: fp8 per-tensor
// scaling at E4M3's subnormal boundary and largest finite, grouped weights along the reduction
// axis of each layout, KV caches with one scale per token and head.
#include "compiler/interp/quantised_operands.h"

#include <gtest/gtest.h>

#include <cmath>

namespace polyarch::interp {
namespace {

DenseTensor tensor(Shape shape, std::vector<float> values) {
  DenseTensor result;
  result.shape = std::move(shape);
  result.values = std::move(values);
  return result;
}

TEST(Fp8Scaled, AnAmaxOf448IsScaleOneAndRoundsAtE4M3sSubnormalBoundary) {
  // amax 448 = E4M3's largest finite: scale 1, each value rounded as E4M3 itself. The smallest
  // subnormal is 2^-9; 2^-10 ties to the even 0; 3 x 2^-10 ties up to 2 x 2^-9; 15 x 2^-10 lies
  // halfway between the largest subnormal 7 x 2^-9 and the smallest normal 2^-6 and goes to the
  // even one, 2^-6 (mantissa 000); 17 (between 16 and 18) ties down to 16.
  const DenseTensor scaled =
      fp8_scaled(tensor({6}, {448.0f, std::ldexp(1.0f, -10), std::ldexp(3.0f, -10),
                              std::ldexp(15.0f, -10), 17.0f, -std::ldexp(1.0f, -9)}),
                 Fp8Format::kE4M3);
  EXPECT_EQ(scaled.values,
            (std::vector<float>{448.0f, 0.0f, std::ldexp(1.0f, -8), std::ldexp(1.0f, -6), 16.0f,
                                -std::ldexp(1.0f, -9)}));
}

TEST(Fp8Scaled, TheScaleMapsAmaxToTheLargestFiniteAndZerosStayZeros) {
  // amax 7: scale 7 / 448 = 1/64 exactly, so x / scale = 64 x: 7 -> 448, 1 -> 64, 0.3 -> 19.2,
  // which E4M3 (step 2 in [16, 32)) rounds to 20, i.e. 0.3125.
  const DenseTensor scaled = fp8_scaled(tensor({3}, {7.0f, -1.0f, 0.3f}), Fp8Format::kE4M3);
  EXPECT_EQ(scaled.values, (std::vector<float>{7.0f, -1.0f, 0.3125f}));
  // E5M2: scale 7 / 57344 = 2^-13: 0.3 x 8192 = 2457.6, step 512 in [2048, 4096): 2560 = 0.3125.
  EXPECT_EQ(fp8_scaled(tensor({2}, {7.0f, 0.3f}), Fp8Format::kE5M2).values[1], 0.3125f);
  EXPECT_EQ(fp8_scaled(tensor({2}, {0.0f, 0.0f}), Fp8Format::kE4M3).values,
            (std::vector<float>{0.0f, 0.0f}));
}

TEST(WeightsInFormat, Int4GroupsRunAlongTheReductionAxisOfAKByNMatrix) {
  // [k = 4, n = 2] row-major: channel 0 is column 0 = {2.5, -7 | 0.9, 3.5}, channel 1 is
  // {1, 0.75 | -14, 6}. Groups of 2: scales 1, 0.5 | fp16(1/7) = 0.142822265625, 2.
  // Codes: 2.5 -> 2 (tie to even), -7; 1.8 -> 2, 7 | 7.0017 -> 7, 5.25 -> 5; -7, 3.
  const DenseTensor weights = tensor({4, 2}, {2.5f, 1.0f, -7.0f, 0.75f, 0.9f, -14.0f, 3.5f, 6.0f});
  const DenseTensor stored =
      weights_in_format(weights, {2, 4, 1, 2}, ir::WeightFormat{ir::DType::kInt4, 2});
  EXPECT_EQ(stored.values, (std::vector<float>{2.0f, 7 * 0.142822265625f, -7.0f,
                                               5 * 0.142822265625f, 1.0f, -14.0f, 3.5f, 6.0f}));
}

TEST(WeightsInFormat, GroupZeroIsOneScalePerOutputChannel) {
  // Filters laid out [channels, reduction]: channel 0 {127, 63.5} has scale 1 (63.5 -> 64),
  // channel 1 {-254, 1} scale 2 (0.5 -> 0).
  const DenseTensor stored = weights_in_format(tensor({2, 2}, {127.0f, 63.5f, -254.0f, 1.0f}),
                                               {2, 2, 2, 1}, ir::WeightFormat{ir::DType::kInt8, 0});
  EXPECT_EQ(stored.values, (std::vector<float>{127.0f, 64.0f, -254.0f, 0.0f}));
}

TEST(WeightsInFormat, Fp8WeightsScaleEachChannelToTheLargestFinite) {
  // Channel 0 {448, 17}: scale fp16(1) = 1, 17 -> 16. Channel 1 {3.5, 0.3}: scale
  // 3.5 / 448 = 2^-7, 0.3 x 128 = 38.4 -> 40 (step 4 in [32, 64)), i.e. 0.3125.
  const DenseTensor stored = weights_in_format(tensor({2, 2}, {448.0f, 17.0f, 3.5f, 0.3f}),
                                               {2, 2, 2, 1}, {ir::DType::kFp8E4M3, 0});
  EXPECT_EQ(stored.values, (std::vector<float>{448.0f, 16.0f, 3.5f, 0.3125f}));
}

TEST(WeightsInFormat, Fp8WeightsSaturateAt448WhenTheirFp16ScaleRoundsDown) {
  // Channel {560, 100} x 2^-24: scale 560 / 448 x 2^-24 = 1.25 x 2^-24, an fp16 subnormal that
  // rounds down to 2^-24 (the step there). 560 x 2^-24 / 2^-24 = 560 lies past E4M3's 448 and
  // saturates to it (unsaturated E4M3 has no infinity: NaN); 100 ties (step 8 in [64, 128))
  // to the even 96.
  const float unit = std::ldexp(1.0f, -24);
  const DenseTensor stored = weights_in_format(tensor({1, 2}, {560 * unit, 100 * unit}),
                                               {1, 2, 2, 1}, {ir::DType::kFp8E4M3, 0});
  EXPECT_EQ(stored.values, (std::vector<float>{448 * unit, 96 * unit}));
}

TEST(KvInFormat, IntegerCachesHaveOneScalePerTokenAndHead) {
  // d = 2: token 0 {1, 0.5} scale fp16(1/7) -> {7, 4} codes (0.5 / 0.142822 = 3.5009);
  // token 1 {-14, 6} scale 2 -> {-7, 3}. One scale for the whole tensor would give scale 2 and
  // zero for token 0's 0.5.
  const DenseTensor stored =
      kv_in_format(tensor({1, 1, 2, 2}, {1.0f, 0.5f, -14.0f, 6.0f}), ir::DType::kInt4, 2);
  EXPECT_EQ(stored.values,
            (std::vector<float>{7 * 0.142822265625f, 4 * 0.142822265625f, -14.0f, 6.0f}));
  // int8: token 0 scale fp16(1/127) = 0.007873535..., both values exact to one code step.
  const DenseTensor int8 =
      kv_in_format(tensor({1, 1, 2, 2}, {1.0f, 0.5f, -14.0f, 6.0f}), ir::DType::kInt8, 2);
  EXPECT_NE(int8.values[1], stored.values[1]);
  EXPECT_NEAR(int8.values[1], 0.5f, 0.0079f / 2);
}

TEST(RoundedTo, Fp16AndBf16DifferOnTheSameValue) {
  // 1 + 2^-9: fp16 keeps it (10 mantissa bits), bf16 (7) rounds it down to 1.
  const DenseTensor value = tensor({1}, {1.0f + std::ldexp(1.0f, -9)});
  EXPECT_EQ(rounded_to(value, ir::DType::kFp16).values[0], 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(rounded_to(value, ir::DType::kBf16).values[0], 1.0f);
}

}  // namespace
}  // namespace polyarch::interp
