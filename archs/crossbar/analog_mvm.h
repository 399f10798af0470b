#pragma once
// One weight matrix programmed onto crossbar arrays and multiplied in analog: the conductances
// (cell levels after stuck-at faults and programming variation), then for every input vector,
// row block and DAC slice the column sums that the ADCs convert (less what the wires take,
// wire_drop.h; with read noise, rounding to the ADC's LSB and clipping at its range), shifted
// and added digitally;
// row blocks (K > rows) add digitally after their ADCs, as in ISAAC. Equations and sources:
// archs/crossbar/README.md ("Functional model").
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "archs/crossbar/analog_codes.h"
#include "archs/crossbar/cell_random.h"
#include "archs/crossbar/params.h"

namespace polyarch::archs::crossbar {

// The ADC of one column sum, in units of one cell level driven by one DAC level. Its LSB is
// the power of two that lets 2^bits - 1 codes cover the full scale (full_scale_fraction of an
// array's largest sum, rows x DAC max x level max): column sums round to the nearest multiple
// of the LSB (ties to even) and clip at (2^bits - 1) x LSB. With enough bits the LSB is 1 and
// integer sums pass exactly.
struct AdcTransfer {
  bool quantize = true;
  double full_scale = 0.0;
  double lsb = 1.0;
  double max_value = 0.0;

  // The value the digital side sees; `clipped` counts conversions above the range.
  double convert(double column_sum, int64_t& clipped) const {
    if (!quantize) return column_sum;
    if (column_sum > max_value) {
      ++clipped;
      return max_value;
    }
    // Ties (a sum exactly between two codes) round to the even code: unbiased on average.
    return column_sum <= 0.0 ? 0.0 : std::nearbyint(column_sum / lsb) * lsb;
  }
};
AdcTransfer adc_transfer(const CrossbarParams& params);
// A range calibrated to the largest column sum one slice pair produced: LSB = that sum over
// 2^bits - 1 codes, but never below one level (integer sums stay exact when they fit).
AdcTransfer calibrated_adc_transfer(const CrossbarParams& params, double largest_sum);

// Counts gathered while multiplying.
struct MvmCounts {
  int64_t adc_conversions = 0;
  int64_t adc_clipped = 0;
};

class AnalogMvm {
 public:
  // Quantises `weights` ([k x n], row-major) and programs them. Cell (row, physical column)
  // sits at array row row % rows and array column (output x cells_per_weight + cell) % cols.
  AnalogMvm(const CrossbarParams& params, std::span<const float> weights, int64_t k, int64_t n,
            uint64_t seed, uint64_t stream);

  // [m x n] outputs for [m x k] activations.
  std::vector<float> multiply(std::span<const float> activations, int64_t m,
                              MvmCounts& counts) const;

  const QuantizedWeights& weights() const { return weights_; }
  const CellLayout& layout() const { return layout_; }
  int64_t physical_columns() const { return weights_.n * layout_.cells_per_weight(); }
  // The programmed conductance of cell (row, physical column), in units of one cell level.
  float conductance(int64_t row, int64_t column) const {
    return conductance_[row * physical_columns() + column];
  }
  // 0 for a working cell, 1 stuck at the lowest level, 2 stuck at the highest.
  uint8_t fault(int64_t row, int64_t column) const {
    return faults_[row * physical_columns() + column];
  }
  int64_t arrays() const;  // arrays the matrix occupies
  // Whether the cells of physical `column` in row block `row_block` hold complemented levels.
  bool flipped(int64_t row_block, int64_t column) const {
    return flipped_[row_block * physical_columns() + column] != 0;
  }

 private:
  int64_t ideal_level(int64_t row, int64_t column) const;  // before flipping and effects
  void choose_flips();
  void program();
  // Reads one row block for every input vector: converts each column sum with its slice
  // pair's ADC into `accumulators`, or (calibration) only records the largest sums.
  struct BlockRead {
    const std::vector<AdcTransfer>& adcs;  // [input slice x cell slice]
    std::vector<double>* accumulators = nullptr;
    std::vector<double>* largest_sums = nullptr;
  };
  template <typename Sum>
  void read_row_block(const QuantizedInputs& inputs, const std::vector<InputSlice>& slices,
                      int64_t row_block, const BlockRead& read, MvmCounts& counts) const;
  template <typename Sum>
  void read_all_blocks(const QuantizedInputs& inputs, const std::vector<InputSlice>& slices,
                       const BlockRead& read, MvmCounts& counts) const;

  CrossbarParams params_;
  QuantizedWeights weights_;
  CellLayout layout_;
  AdcTransfer adc_;
  CellRandom random_;
  std::vector<float> conductance_;  // [k x physical columns]
  // With resistive wires, what each row delivers to each column through the network (wire
  // drops included, wire_drop.h); empty with ideal wires.
  std::vector<float> read_conductance_;
  std::vector<uint8_t> faults_;
  std::vector<uint8_t> flipped_;  // [row blocks x physical columns]
};

}  // namespace polyarch::archs::crossbar
