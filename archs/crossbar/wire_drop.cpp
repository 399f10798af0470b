#include "archs/crossbar/wire_drop.h"

#include <algorithm>
#include <vector>

namespace polyarch::archs::crossbar {

void subtract_wire_drops(const WireGeometry& wires, std::span<const double> digits,
                         std::span<const float> conductance, std::span<double> column_sums) {
  const auto rows = static_cast<int64_t>(digits.size());
  const auto columns = static_cast<int64_t>(column_sums.size());
  // Column wires: sum_r g_rc V_col(r) = rho sum_s T(s) G(s), T(s) the current through the
  // segment below row s (cells r' <= s), G(s) = sum_{r<=s} g_rc; the segments from the block's
  // last row to the ADC (array_rows - rows of them past the last) carry T(rows - 1).
  const double extra_segments = double(wires.array_rows - rows);
  for (int64_t column = 0; column < columns; ++column) {
    double current = 0.0, conductance_above = 0.0, drop = 0.0;
    for (int64_t row = 0; row < rows; ++row) {
      const double g = conductance[row * columns + column];
      conductance_above += g;
      current += digits[row] * g;
      drop += current * conductance_above;
    }
    drop += extra_segments * current * conductance_above;
    column_sums[column] -= wires.rho * drop;
  }
  // Row wires, per driven row and array: S(s) = sum_{c>=s} I_rc through the segment into
  // column s, V_row(c) = rho sum_{s<=c} S(s).
  std::vector<double> beyond;
  for (int64_t row = 0; row < rows; ++row) {
    if (digits[row] == 0.0) continue;
    const float* g = conductance.data() + row * columns;
    for (int64_t first = 0; first < columns; first += wires.array_columns) {
      const int64_t end = std::min(columns, first + wires.array_columns);
      beyond.assign(static_cast<std::size_t>(end - first + 1), 0.0);
      for (int64_t column = end - 1; column >= first; --column) {
        beyond[column - first] = beyond[column - first + 1] + digits[row] * g[column];
      }
      double voltage_drop = 0.0;
      for (int64_t column = first; column < end; ++column) {
        voltage_drop += wires.rho * beyond[column - first];
        column_sums[column] -= double(g[column]) * voltage_drop;
      }
    }
  }
}

}  // namespace polyarch::archs::crossbar
