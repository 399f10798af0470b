// The crossbar's analog MVM held to closed forms: exact equality with the ideal quantised GEMM
// when every effect is off, the ADC's half-LSB bound and clipping, noise variance sigma^2 K,
// stuck-at faults removing exactly their cells' contributions, IR drop growing with the array
// (its first-order model against the exact network: wire_drop_test.cpp).
#include "archs/crossbar/analog_mvm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "base/random_draw.h"

namespace polyarch::archs::crossbar {
namespace {

// A small unit with every analog effect off and an ADC wide enough for exact sums.
CrossbarParams small_unit(int64_t rows, int64_t cols, bool differential) {
  CrossbarParams params;
  params.name = "xbar";
  params.rows = rows;
  params.cols = cols;
  params.cell.bits_per_cell = 2;
  params.weight_bits = 8;
  params.input_bits = 6;
  params.dac_bits = 2;
  params.differential = differential;
  params.adc.bits = 16;
  return params;
}

std::vector<float> random_values(std::size_t count, uint64_t seed, float low, float high) {
  std::mt19937_64 generator(seed);
  auto value = [&](auto& engine) {
    return static_cast<float>(polyarch::random_real(engine, low, high));
  };
  std::vector<float> values(count);
  for (float& v : values) v = value(generator);
  return values;
}

std::vector<float> ideal(const CrossbarParams& params, const std::vector<float>& inputs,
                         const std::vector<float>& weights, int64_t m, int64_t k, int64_t n) {
  return ideal_quantized_gemm(quantize_inputs(inputs, m, k, params.input_bits),
                              quantize_weights(weights, k, n, params.weight_bits));
}

std::vector<float> analog(const CrossbarParams& params, const std::vector<float>& inputs,
                          const std::vector<float>& weights, int64_t m, int64_t k, int64_t n,
                          uint64_t seed = 7) {
  MvmCounts counts;
  return AnalogMvm(params, weights, k, n, seed, 1).multiply(inputs, m, counts);
}

TEST(AnalogMvm, WithEveryEffectOffItEqualsTheIdealQuantisedGemmExactly) {
  const int64_t m = 5, k = 70, n = 9;  // 70 rows: five row blocks of 16 (the last partial)
  for (bool differential : {false, true}) {
    for (float low : {0.0f, -1.0f}) {  // unsigned (post-ReLU) and signed inputs
      const CrossbarParams params = small_unit(16, 32, differential);
      const std::vector<float> inputs = random_values(m * k, 1, low, 1.0f);
      const std::vector<float> weights = random_values(k * n, 2, -0.5f, 0.5f);
      EXPECT_EQ(analog(params, inputs, weights, m, k, n), ideal(params, inputs, weights, m, k, n))
          << "differential=" << differential << " low=" << low;
    }
  }
}

TEST(AnalogMvm, EveryReadIsConvertedOncePerColumn) {
  const CrossbarParams params = small_unit(16, 32, true);
  const int64_t m = 3, k = 40, n = 4;
  MvmCounts counts;
  AnalogMvm(params, random_values(k * n, 2, -1, 1), k, n, 7, 1)
      .multiply(random_values(m * k, 1, 0, 1), m, counts);
  // 3 row blocks x 3 two-bit slices of 6 input bits x (4 weights x 4 slices x 2 polarities).
  EXPECT_EQ(counts.adc_conversions, m * 3 * 3 * (n * 4 * 2));
  EXPECT_EQ(counts.adc_clipped, 0);
}

TEST(AnalogMvm, AdcRoundingErrorStaysWithinHalfAnLsbPerConversion) {
  CrossbarParams params = small_unit(64, 64, true);
  params.dac_bits = 1;
  params.adc.bits = 4;  // full scale 64 x 1 x 3 = 192 needs 8 bits: LSB = 16 levels
  const AdcTransfer adc = adc_transfer(params);
  ASSERT_DOUBLE_EQ(adc.lsb, 16.0);
  const int64_t m = 6, k = 150, n = 5;
  const std::vector<float> inputs = random_values(m * k, 3, 0.0f, 1.0f);
  const std::vector<float> weights = random_values(k * n, 4, -1.0f, 1.0f);
  const std::vector<float> got = analog(params, inputs, weights, m, k, n);
  const std::vector<float> want = ideal(params, inputs, weights, m, k, n);
  const QuantizedInputs x = quantize_inputs(inputs, m, k, params.input_bits);
  const QuantizedWeights w = quantize_weights(weights, k, n, params.weight_bits);
  // Each conversion errs by at most LSB/2 and enters with |slice factor| x 2^shift.
  double weight_sum = 0.0, factor_sum = 0.0;
  for (const CellColumn& cell : cell_layout(params).columns)
    weight_sum += std::ldexp(1.0, int(cell.shift));
  for (const InputSlice& slice : input_slices(params.input_bits, params.dac_bits, false)) {
    factor_sum += std::fabs(slice.factor);
  }
  const double row_blocks = 3;
  double largest_error = 0.0;
  for (int64_t row = 0; row < m; ++row) {
    for (int64_t col = 0; col < n; ++col) {
      const double error = std::fabs(double(got[row * n + col]) - want[row * n + col]);
      const double bound =
          x.scale * w.scales[col] * row_blocks * factor_sum * weight_sum * adc.lsb / 2;
      EXPECT_LE(error, bound * (1 + 1e-6)) << row << "," << col;
      largest_error = std::max(largest_error, error);
    }
  }
  EXPECT_GT(largest_error, 0.0);  // a 4-bit ADC does lose information here
}

TEST(AnalogMvm, ColumnSumsAboveTheAdcRangeClip) {
  CrossbarParams params = small_unit(8, 8, true);
  params.weight_bits = 3;  // codes -3..3 over two 2-bit cells
  params.input_bits = 2;
  params.dac_bits = 1;
  params.adc.bits = 4;
  params.adc.full_scale_fraction = 0.5;  // 0.5 x 8 rows x 3 = 12: LSB 1, range 15
  const std::vector<float> ones(8, 1.0f);
  MvmCounts counts;
  const std::vector<float> got = AnalogMvm(params, ones, 8, 1, 7, 1).multiply(ones, 1, counts);
  // Input code 3 = two 1-bit slices each summing 8 rows x level 3 = 24 -> clipped to 15; the
  // weight's code 3 is scale 1/3, the input's code 3 scale 1/3: (15 + 2 x 15) / 9.
  EXPECT_FLOAT_EQ(got[0], 45.0f / 9.0f);
  EXPECT_EQ(counts.adc_clipped, 2);
}

// Outputs of n identical columns (all weights +1 as one top-level cell, inputs all 1) carry
// independent noise; their variance against sigma^2 K.
double output_variance(CrossbarParams params, int64_t k, int64_t n) {
  params.weight_bits = 2;  // code 1 in one 2-bit cell (plus its negative twin at 0)
  params.input_bits = 2;
  params.dac_bits = 1;
  params.analog.adc_quantization = false;
  const std::vector<float> inputs(k, 1.0f);
  const std::vector<float> weights(k * n, 1.0f);
  MvmCounts counts;
  const std::vector<float> outputs =
      AnalogMvm(params, weights, k, n, 11, 3).multiply(inputs, 1, counts);
  double mean = 0.0, squares = 0.0;
  for (float v : outputs) mean += v;
  mean /= double(n);
  for (float v : outputs) squares += (v - mean) * (v - mean);
  // Input code 3 (scale 1/3) enters twice the one-bit slice sum: output = sum of cells.
  return squares / double(n - 1);
}

TEST(AnalogMvm, ProgrammingVariationVarianceIsSigmaSquaredTimesK) {
  CrossbarParams params = small_unit(128, 128, true);
  params.analog.program_sigma = 0.1;
  params.analog.program_variation = ProgramVariation::kGaussian;
  for (int64_t k : {64, 256}) {
    // Each cell's error is fixed and enters both input slices: output = sum_k g_k.
    EXPECT_NEAR(output_variance(params, k, 4000) / (0.01 * double(k)), 1.0, 0.1) << k;
  }
}

TEST(AnalogMvm, ReadNoiseVarianceIsSigmaSquaredTimesKPerRead) {
  CrossbarParams params = small_unit(128, 128, true);
  params.analog.read_sigma = 0.1;
  for (int64_t k : {64, 256}) {
    // Two reads (one per input bit), weighted 1/3 and 2/3: variance (1 + 4) / 9 sigma^2 K.
    EXPECT_NEAR(output_variance(params, k, 4000) / (5.0 / 9.0 * 0.01 * double(k)), 1.0, 0.1) << k;
  }
}

TEST(AnalogMvm, LognormalVariationScalesTheMeanByExpHalfSigmaSquared) {
  CrossbarParams params = small_unit(128, 128, true);
  params.weight_bits = 2;
  params.analog.program_sigma = 0.3;
  const int64_t k = 100, n = 2000;
  const AnalogMvm mvm(params, std::vector<float>(k * n, 1.0f), k, n, 5, 9);
  double mean = 0.0;
  for (int64_t column = 0; column < n; ++column) mean += mvm.conductance(0, column * 2);
  EXPECT_NEAR(mean / double(n), std::exp(0.3 * 0.3 / 2), 0.02);
}

TEST(AnalogMvm, AStuckCellChangesExactlyItsOwnContribution) {
  CrossbarParams params = small_unit(16, 32, false);  // offset encoding: every cell matters
  params.analog.stuck_at_zero_rate = 0.03;
  params.analog.stuck_at_one_rate = 0.02;
  const int64_t m = 4, k = 40, n = 6;
  const std::vector<float> inputs = random_values(m * k, 5, -1.0f, 1.0f);
  const std::vector<float> weights = random_values(k * n, 6, -1.0f, 1.0f);
  const AnalogMvm mvm(params, weights, k, n, 13, 2);
  MvmCounts counts;
  const std::vector<float> got = mvm.multiply(inputs, m, counts);
  const std::vector<float> want = ideal(params, inputs, weights, m, k, n);
  const QuantizedInputs x = quantize_inputs(inputs, m, k, params.input_bits);
  const CellLayout& layout = mvm.layout();
  int64_t faults = 0;
  for (int64_t row = 0; row < m; ++row) {
    for (int64_t col = 0; col < n; ++col) {
      double change = 0.0;  // in code units: input code x level change x 2^shift
      for (int64_t inner = 0; inner < k; ++inner) {
        for (std::size_t cell = 0; cell < layout.columns.size(); ++cell) {
          const int64_t column = col * layout.cells_per_weight() + int64_t(cell);
          if (mvm.fault(inner, column) == 0) continue;
          faults += row == 0;
          const double stuck = mvm.fault(inner, column) == 1 ? 0.0 : double(layout.level_max);
          const double programmed =
              double(layout.level(mvm.weights().codes[inner * n + col], cell));
          change += double(x.codes[row * k + inner]) * (stuck - programmed) *
                    std::ldexp(1.0, int(layout.columns[cell].shift));
        }
      }
      const double expected = want[row * n + col] + x.scale * mvm.weights().scales[col] * change;
      EXPECT_NEAR(got[row * n + col], expected, 1e-5 * std::max(1.0, std::fabs(expected)));
    }
  }
  EXPECT_GT(faults, 0);
}

TEST(AnalogMvm, IrDropErrorGrowsWithTheArraySize) {
  const int64_t m = 4, k = 256, n = 32;
  const std::vector<float> inputs = random_values(m * k, 9, 0.0f, 1.0f);
  const std::vector<float> weights = random_values(k * n, 10, -1.0f, 1.0f);
  double previous = 0.0;
  for (int64_t size : {32, 64, 128, 256}) {
    CrossbarParams params = small_unit(size, size, true);
    params.analog.adc_quantization = false;  // the ADC's rounding would hide small drops
    params.analog.wire_resistance_ohm = 1.0;
    const std::vector<float> got = analog(params, inputs, weights, m, k, n);
    const std::vector<float> want = ideal(params, inputs, weights, m, k, n);
    double error = 0.0;
    for (std::size_t i = 0; i < got.size(); ++i) error += std::fabs(got[i] - want[i]);
    EXPECT_GT(error, previous) << size;
    previous = error;
  }
}

// 16 rows of 2-bit cells and 1-bit DAC slices: column sums reach 48 (6 bits); flipped columns
// stay at or below 24, which a 5-bit ADC converts with an LSB of one level, exactly.
TEST(AnalogMvm, FlippedColumnsFitAnAdcOneBitNarrowerExactly) {
  CrossbarParams params = small_unit(16, 64, false);  // offset encoding: mid-level cells
  params.dac_bits = 1;
  params.adc.bits = 5;
  const int64_t m = 4, k = 40, n = 6;
  const std::vector<float> inputs = random_values(m * k, 5, 0.0f, 1.0f);
  const std::vector<float> weights = random_values(k * n, 6, -1.0f, 1.0f);
  const std::vector<float> want = ideal(params, inputs, weights, m, k, n);
  EXPECT_DOUBLE_EQ(adc_transfer(params).lsb, 2.0);
  EXPECT_NE(analog(params, inputs, weights, m, k, n), want);  // unflipped: LSB of two levels
  params.flip_columns = true;
  EXPECT_DOUBLE_EQ(adc_transfer(params).lsb, 1.0);
  const AnalogMvm mvm(params, weights, k, n, 7, 1);
  int64_t flipped = 0;
  for (int64_t column = 0; column < mvm.physical_columns(); ++column) flipped += mvm.flipped(0, column);
  EXPECT_GT(flipped, 0);  // the offset puts many columns above half range
  MvmCounts counts;
  EXPECT_EQ(mvm.multiply(inputs, m, counts), want);
  EXPECT_EQ(counts.adc_clipped, 0);
}

// Signed inputs are driven as magnitudes in two phases: the negated inputs put the same digits
// in the other phase, so even through a coarse ADC the outputs are exactly negated. (Two's-
// complement slices would put a small negative input's ones in every slice.)
TEST(AnalogMvm, NegatedSignedInputsGiveExactlyNegatedOutputsThroughACoarseAdc) {
  CrossbarParams params = small_unit(32, 64, true);
  params.dac_bits = 1;
  params.adc.bits = 4;
  const int64_t m = 5, k = 70, n = 7;
  std::vector<float> inputs = random_values(m * k, 8, -1.0f, 1.0f);
  const std::vector<float> weights = random_values(k * n, 9, -1.0f, 1.0f);
  const std::vector<float> got = analog(params, inputs, weights, m, k, n);
  EXPECT_NE(got, ideal(params, inputs, weights, m, k, n));  // the 4-bit ADC does round
  for (float& value : inputs) value = -value;
  const std::vector<float> negated = analog(params, inputs, weights, m, k, n);
  ASSERT_EQ(got.size(), negated.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(negated[i], -got[i]) << i;
}

TEST(AnalogMvm, SignedInputsTakeTwoPhasesOfMagnitudeSlices) {
  const std::vector<InputSlice> slices = input_slices(6, 2, true);
  ASSERT_EQ(slices.size(), 6u);  // 5 magnitude bits in 2-bit slices, per phase
  EXPECT_EQ(slices[0].digit(-5), 0);  // the positive phase skips negative inputs
  EXPECT_EQ(slices[3].digit(-5), 1);  // -5: magnitude 0b00101, low slice 01
  EXPECT_EQ(slices[4].digit(-5), 1);  // next slice 01
  EXPECT_EQ(slices[5].digit(-5), 0);
  EXPECT_DOUBLE_EQ(slices[4].factor, -4.0);
  EXPECT_EQ(input_slices(6, 2, false).size(), 3u);
  // The timing counts the slices the functional engine drives.
  CrossbarParams timed;
  timed.input_bits = 6;
  timed.dac_bits = 2;
  EXPECT_EQ(timed.input_slices(true), 6);
  EXPECT_EQ(timed.input_slices(false), 3);
}

// Small activations (a tenth of the inputs active) leave column sums far below the design's
// range: a range calibrated to the largest sum each slice pair produced never clips and errs
// less than the worst-case range; with enough bits it is exact.
TEST(AnalogMvm, ACalibratedAdcRangeNeverClipsAndResolvesSmallSumsBetter) {
  CrossbarParams params = small_unit(64, 64, true);
  params.dac_bits = 1;
  params.adc.bits = 3;  // worst case 64 x 3 = 192 needs 8 bits: LSB 32 levels
  const int64_t m = 6, k = 128, n = 5;
  std::vector<float> inputs = random_values(m * k, 10, 0.0f, 1.0f);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (i % 10 != 0) inputs[i] = 0.0f;
  }
  const std::vector<float> weights = random_values(k * n, 11, -1.0f, 1.0f);
  const std::vector<float> want = ideal(params, inputs, weights, m, k, n);
  auto total_error = [&](const std::vector<float>& got) {
    double error = 0.0;
    for (std::size_t i = 0; i < got.size(); ++i) error += std::fabs(got[i] - want[i]);
    return error;
  };
  const double worst_case_error = total_error(analog(params, inputs, weights, m, k, n));
  params.adc.calibrated_range = true;
  MvmCounts counts;
  const std::vector<float> calibrated =
      AnalogMvm(params, weights, k, n, 7, 1).multiply(inputs, m, counts);
  EXPECT_EQ(counts.adc_clipped, 0);
  EXPECT_GT(total_error(calibrated), 0.0);
  EXPECT_LT(total_error(calibrated), worst_case_error / 2);
  params.adc.bits = 8;
  EXPECT_EQ(analog(params, inputs, weights, m, k, n), want);
  // Step: the largest sum over 2^bits - 1 codes, never below one level.
  EXPECT_DOUBLE_EQ(calibrated_adc_transfer(params, 510.0).lsb, 2.0);
  EXPECT_DOUBLE_EQ(calibrated_adc_transfer(params, 100.0).lsb, 1.0);
}

TEST(AnalogMvm, TheSeedFixesEveryDraw) {
  CrossbarParams params = small_unit(16, 32, true);
  params.analog.program_sigma = 0.05;
  params.analog.read_sigma = 0.05;
  params.analog.stuck_at_zero_rate = 0.01;
  const int64_t m = 3, k = 20, n = 5;
  const std::vector<float> inputs = random_values(m * k, 1, -1, 1);
  const std::vector<float> weights = random_values(k * n, 2, -1, 1);
  EXPECT_EQ(analog(params, inputs, weights, m, k, n, 3),
            analog(params, inputs, weights, m, k, n, 3));
  EXPECT_NE(analog(params, inputs, weights, m, k, n, 3),
            analog(params, inputs, weights, m, k, n, 4));
}

}  // namespace
}  // namespace polyarch::archs::crossbar
