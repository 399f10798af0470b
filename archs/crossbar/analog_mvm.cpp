#include "archs/crossbar/analog_mvm.h"

#include "archs/crossbar/wire_drop.h"

#include <algorithm>
#include <cmath>

#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::archs::crossbar {

AdcTransfer adc_transfer(const CrossbarParams& params) {
  AdcTransfer adc;
  adc.quantize = params.analog.adc_quantization;
  adc.full_scale = params.adc.full_scale_fraction * params.worst_column_sum();
  const int needed_bits = static_cast<int>(std::ceil(std::log2(adc.full_scale + 1.0)));
  adc.lsb = std::ldexp(1.0, std::max(0, needed_bits - int(params.adc.bits)));
  adc.max_value = (std::ldexp(1.0, int(params.adc.bits)) - 1.0) * adc.lsb;
  return adc;
}

AdcTransfer calibrated_adc_transfer(const CrossbarParams& params, double largest_sum) {
  AdcTransfer adc;
  const double codes = std::ldexp(1.0, int(params.adc.bits)) - 1.0;
  adc.full_scale = largest_sum;
  adc.lsb = std::max(1.0, largest_sum / codes);
  adc.max_value = codes * adc.lsb;
  return adc;
}

AnalogMvm::AnalogMvm(const CrossbarParams& params, std::span<const float> weights, int64_t k,
                     int64_t n, uint64_t seed, uint64_t stream)
    : params_(params),
      weights_(quantize_weights(weights, k, n, params.weight_bits)),
      layout_(cell_layout(params)),
      adc_(adc_transfer(params)),
      random_(seed, stream) {
  program();
}

int64_t AnalogMvm::arrays() const {
  return ceil_div(weights_.k, params_.rows) * ceil_div(physical_columns(), params_.cols);
}

int64_t AnalogMvm::ideal_level(int64_t row, int64_t column) const {
  const int64_t code = weights_.codes[row * weights_.n + column / layout_.cells_per_weight()];
  return layout_.level(code, static_cast<std::size_t>(column % layout_.cells_per_weight()));
}

// With flip_columns, the columns of each row block whose levels sum above half the block's
// range (block rows x top level) store complements.
void AnalogMvm::choose_flips() {
  const int64_t columns = physical_columns();
  const int64_t row_blocks = ceil_div(weights_.k, params_.rows);
  flipped_.assign(static_cast<std::size_t>(row_blocks * columns), 0);
  if (!params_.flip_columns) return;
  for (int64_t block = 0; block < row_blocks; ++block) {
    const int64_t first_row = block * params_.rows;
    const int64_t end_row = std::min(weights_.k, first_row + params_.rows);
    for (int64_t column = 0; column < columns; ++column) {
      int64_t level_sum = 0;
      for (int64_t row = first_row; row < end_row; ++row) level_sum += ideal_level(row, column);
      flipped_[block * columns + column] = 2 * level_sum > (end_row - first_row) * layout_.level_max;
    }
  }
}

// Levels from the codes (complemented in flipped columns), then faults and programming
// variation, cell by cell; with resistive wires, then what each row delivers to each column
// through the array's network (wire_drop.h), which every read uses in place of the levels.
void AnalogMvm::program() {
  choose_flips();
  const AnalogParams& analog = params_.analog;
  const int64_t columns = physical_columns();
  const double level_max = double(layout_.level_max);
  conductance_.assign(static_cast<std::size_t>(weights_.k * columns), 0.0f);
  faults_.assign(conductance_.size(), 0);
  for (int64_t row = 0; row < weights_.k; ++row) {
    for (int64_t column = 0; column < columns; ++column) {
      const std::size_t index = static_cast<std::size_t>(row * columns + column);
      const int64_t stored = flipped(row / params_.rows, column)
                                 ? layout_.level_max - ideal_level(row, column)
                                 : ideal_level(row, column);
      double level = double(stored);
      if (analog.stuck_at_zero_rate > 0.0 || analog.stuck_at_one_rate > 0.0) {
        const double draw = random_.uniform(index, Draw::kStuckAt);
        if (draw < analog.stuck_at_zero_rate) {
          faults_[index] = 1;
          level = 0.0;
        } else if (draw < analog.stuck_at_zero_rate + analog.stuck_at_one_rate) {
          faults_[index] = 2;
          level = level_max;
        }
      }
      if (analog.program_sigma > 0.0) {
        const double z = random_.gaussian(index, Draw::kProgramVariation);
        level = analog.program_variation == ProgramVariation::kLognormal
                    ? level * std::exp(analog.program_sigma * z)
                    : std::max(0.0, level * (1.0 + analog.program_sigma * z));
      }
      conductance_[index] = static_cast<float>(level);
    }
  }
  if (analog.wire_resistance_ohm > 0.0) {
    const WireGeometry wires{params_.rows, params_.cols,
                             analog.wire_resistance_ohm /
                                 (analog.cell_on_resistance_ohm * level_max)};
    read_conductance_.resize(conductance_.size());
    for (int64_t first = 0; first < weights_.k; first += params_.rows) {
      const int64_t rows = std::min(params_.rows, weights_.k - first);
      const std::span<const float> block(conductance_.data() + first * columns,
                                         static_cast<std::size_t>(rows * columns));
      const std::vector<float> effective =
          effective_conductance(wires, block, rows, params_.name);
      std::copy(effective.begin(), effective.end(), read_conductance_.begin() + first * columns);
    }
  }
}

// One row block for every input vector: per DAC slice, the column sums of the block's rows
// (read noise added per read), converted, weighted by slice and cell, added to the outputs.
// `Sum` is float where every ideal column sum is an exact float (below 2^24), else double.
template <typename Sum>
void AnalogMvm::read_row_block(const QuantizedInputs& inputs, const std::vector<InputSlice>& slices,
                               int64_t row_block, const BlockRead& read,
                               MvmCounts& counts) const {
  const int64_t columns = physical_columns();
  const int64_t cells = layout_.cells_per_weight();
  const int64_t slice_count = static_cast<int64_t>(slices.size());
  const int64_t first_row = row_block * params_.rows;
  const int64_t end_row = std::min(weights_.k, first_row + params_.rows);
  const int64_t row_blocks = ceil_div(weights_.k, params_.rows);
  const double read_sigma = params_.analog.read_sigma;
  std::vector<Sum> sums(static_cast<std::size_t>(slice_count * columns));
  std::vector<Sum> squares(read_sigma > 0.0 ? sums.size() : 0);
  std::vector<double> digit_sums(static_cast<std::size_t>(slice_count));  // for flipped columns
  std::vector<double> cell_weight(static_cast<std::size_t>(cells));
  for (int64_t cell = 0; cell < cells; ++cell) {
    const CellColumn& column = layout_.columns[static_cast<std::size_t>(cell)];
    cell_weight[cell] = double(column.polarity) * std::ldexp(1.0, int(column.shift));
  }
  for (int64_t vector = 0; vector < inputs.m; ++vector) {
    std::fill(sums.begin(), sums.end(), Sum{0});
    std::fill(squares.begin(), squares.end(), Sum{0});
    std::fill(digit_sums.begin(), digit_sums.end(), 0.0);
    for (int64_t row = first_row; row < end_row; ++row) {
      const int64_t code = inputs.codes[vector * inputs.k + row];
      if (code == 0) continue;
      // With resistive wires a row drives its columns through the network (wire_drop.h).
      const float* cell_row =
          (read_conductance_.empty() ? conductance_ : read_conductance_).data() + row * columns;
      for (int64_t slice = 0; slice < slice_count; ++slice) {
        const Sum digit = static_cast<Sum>(slices[slice].digit(code));
        if (digit == Sum{0}) continue;
        digit_sums[slice] += double(digit);
        Sum* sum = sums.data() + slice * columns;
        for (int64_t column = 0; column < columns; ++column)
          sum[column] += digit * cell_row[column];
        if (squares.empty()) continue;
        Sum* square = squares.data() + slice * columns;
        for (int64_t column = 0; column < columns; ++column) {
          square[column] += digit * digit * cell_row[column] * cell_row[column];
        }
      }
    }
    for (int64_t slice = 0; slice < slice_count; ++slice) {
      const uint64_t read_index =
          static_cast<uint64_t>((vector * row_blocks + row_block) * slice_count + slice);
      for (int64_t column = 0; column < columns; ++column) {
        double current = double(sums[slice * columns + column]);
        if (!squares.empty()) {
          current += read_sigma * std::sqrt(double(squares[slice * columns + column])) *
                     random_.gaussian(read_index * uint64_t(columns) + uint64_t(column),
                                      Draw::kReadNoise);
        }
        const std::size_t adc_index = static_cast<std::size_t>(slice * cells + column % cells);
        if (read.largest_sums != nullptr) {
          double& largest = (*read.largest_sums)[adc_index];
          largest = std::max(largest, current);
          continue;
        }
        double converted = read.adcs[adc_index].convert(current, counts.adc_clipped);
        // A flipped column read sum_k d_k (top - L_k): the digital side recovers sum_k d_k L_k.
        if (flipped(row_block, column)) {
          converted = double(layout_.level_max) * digit_sums[slice] - converted;
        }
        (*read.accumulators)[vector * weights_.n + column / cells] +=
            slices[slice].factor * cell_weight[column % cells] * converted;
      }
    }
    if (read.accumulators != nullptr) counts.adc_conversions += slice_count * columns;
  }
}

template <typename Sum>
void AnalogMvm::read_all_blocks(const QuantizedInputs& inputs,
                                const std::vector<InputSlice>& slices, const BlockRead& read,
                                MvmCounts& counts) const {
  for (int64_t block = 0; block < ceil_div(weights_.k, params_.rows); ++block) {
    read_row_block<Sum>(inputs, slices, block, read, counts);
  }
}

std::vector<float> AnalogMvm::multiply(std::span<const float> activations, int64_t m,
                                       MvmCounts& counts) const {
  const QuantizedInputs inputs = quantize_inputs(activations, m, weights_.k, params_.input_bits);
  const std::vector<InputSlice> slices =
      input_slices(params_.input_bits, params_.dac_bits, inputs.is_signed);
  std::vector<double> accumulators(static_cast<std::size_t>(m * weights_.n), 0.0);
  // Float sums are exact integers while the largest ideal column sum stays below 2^24 (and the
  // cells conduct whole levels: not through resistive wires).
  const double largest_sum = double(params_.rows) * (std::ldexp(1.0, int(params_.dac_bits)) - 1) *
                             double(layout_.level_max);
  const auto read_all = largest_sum < 0x1.0p24 && read_conductance_.empty()
                            ? &AnalogMvm::read_all_blocks<float>
                            : &AnalogMvm::read_all_blocks<double>;
  std::vector<AdcTransfer> adcs(slices.size() * static_cast<std::size_t>(layout_.cells_per_weight()),
                                adc_);
  if (params_.adc.calibrated_range && adc_.quantize) {
    // A first pass over the same reads (the same counter-based noise draws) finds each slice
    // pair's largest sum; the second converts with ranges set to them.
    std::vector<double> largest(adcs.size(), 0.0);
    (this->*read_all)(inputs, slices, {adcs, nullptr, &largest}, counts);
    for (std::size_t i = 0; i < adcs.size(); ++i) {
      adcs[i] = calibrated_adc_transfer(params_, largest[i]);
    }
  }
  (this->*read_all)(inputs, slices, {adcs, &accumulators, nullptr}, counts);
  std::vector<float> outputs(accumulators.size());
  for (int64_t vector = 0; vector < m; ++vector) {
    // The offset encoding stored code + offset: remove offset x sum of the inputs, digitally.
    double input_sum = 0.0;
    for (int64_t row = 0; row < weights_.k; ++row)
      input_sum += double(inputs.codes[vector * weights_.k + row]);
    for (int64_t column = 0; column < weights_.n; ++column) {
      const std::size_t index = static_cast<std::size_t>(vector * weights_.n + column);
      outputs[index] = dequantize(accumulators[index] - double(layout_.offset) * input_sum,
                                  inputs.scale, weights_.scales[column]);
    }
  }
  return outputs;
}

}  // namespace polyarch::archs::crossbar
