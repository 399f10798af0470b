#include "archs/crossbar/wire_drop.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/error.h"

namespace polyarch::archs::crossbar {

namespace {

// The wire drops every cell sees for currents `current` ([rows x columns]), added into `drop`.
void add_drops(const WireGeometry& wires, int64_t rows, int64_t columns,
               const std::vector<double>& current, std::vector<double>& drop) {
  // Column wires: from the ADC up, the voltage at row r is rho x the currents of every segment
  // at or below it; the segment below row s carries the cells at rows <= s.
  const double extra_segments = double(wires.array_rows - rows);
  std::vector<double> through(static_cast<std::size_t>(rows));
  for (int64_t column = 0; column < columns; ++column) {
    double carried = 0.0;
    for (int64_t row = 0; row < rows; ++row) {
      carried += current[row * columns + column];
      through[row] = carried;
    }
    double voltage = wires.rho * extra_segments * carried;
    for (int64_t row = rows - 1; row >= 0; --row) {
      voltage += wires.rho * through[row];
      drop[row * columns + column] += voltage;
    }
  }
  // Row wires, per array: the segment into column s carries the cells at columns >= s.
  std::vector<double> beyond;
  for (int64_t row = 0; row < rows; ++row) {
    const double* row_current = current.data() + row * columns;
    for (int64_t first = 0; first < columns; first += wires.array_columns) {
      const int64_t end = std::min(columns, first + wires.array_columns);
      beyond.assign(static_cast<std::size_t>(end - first + 1), 0.0);
      for (int64_t column = end - 1; column >= first; --column) {
        beyond[column - first] = beyond[column - first + 1] + row_current[column];
      }
      double voltage = 0.0;
      for (int64_t column = first; column < end; ++column) {
        voltage += wires.rho * beyond[column - first];
        drop[row * columns + column] += voltage;
      }
    }
  }
}

}  // namespace

void wire_column_sums(const WireGeometry& wires, std::span<const double> digits,
                      std::span<const float> conductance, std::span<double> column_sums,
                      const std::string& unit) {
  const auto rows = static_cast<int64_t>(digits.size());
  const auto columns = static_cast<int64_t>(column_sums.size());
  const auto cells = static_cast<std::size_t>(rows * columns);
  std::vector<double> current(cells), drop(cells);
  double largest = 0.0;
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t column = 0; column < columns; ++column) {
      const double ideal = digits[row] * conductance[row * columns + column];
      current[row * columns + column] = ideal;
      largest = std::max(largest, std::fabs(ideal));
    }
  }
  double relaxation = 1.0, previous_step = INFINITY;
  for (int64_t iteration = 0; largest > 0.0; ++iteration) {
    if (iteration == wires.max_iterations) {
      throw_runtime({"", 0, 0, unit},
                    "the crossbar's wire network did not settle in " +
                        std::to_string(wires.max_iterations) +
                        " iterations: its wires take most of the drive (r_wire / R_on too large "
                        "for the array's size); lower wire_resistance_ohm, raise "
                        "cell_on_resistance_ohm or use smaller arrays");
    }
    std::fill(drop.begin(), drop.end(), 0.0);
    add_drops(wires, rows, columns, current, drop);
    double step = 0.0;
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t column = 0; column < columns; ++column) {
        const std::size_t index = static_cast<std::size_t>(row * columns + column);
        const double next = conductance[index] * (digits[row] - drop[index]);
        step = std::max(step, std::fabs(next - current[index]));
        current[index] += relaxation * (next - current[index]);
      }
    }
    if (wires.first_order_only || step <= wires.tolerance * largest) break;
    // An oscillating iteration (the drop's feedback above one) settles when damped.
    if (step > previous_step) relaxation *= 0.5;
    previous_step = step;
  }
  std::fill(column_sums.begin(), column_sums.end(), 0.0);
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t column = 0; column < columns; ++column) {
      column_sums[column] += current[row * columns + column];
    }
  }
}

std::vector<float> effective_conductance(const WireGeometry& wires,
                                         std::span<const float> conductance, int64_t rows,
                                         const std::string& unit) {
  const auto columns = static_cast<int64_t>(conductance.size()) / std::max<int64_t>(rows, 1);
  std::vector<float> effective(conductance.size());
  std::vector<double> digits(static_cast<std::size_t>(rows));
  for (int64_t first = 0; first < columns; first += wires.array_columns) {
    const int64_t width = std::min(wires.array_columns, columns - first);
    std::vector<float> array(static_cast<std::size_t>(rows * width));
    for (int64_t row = 0; row < rows; ++row) {
      std::copy_n(conductance.data() + row * columns + first, width, array.data() + row * width);
    }
    std::vector<double> sums(static_cast<std::size_t>(width));
    for (int64_t driven = 0; driven < rows; ++driven) {
      std::fill(digits.begin(), digits.end(), 0.0);
      digits[driven] = 1.0;
      wire_column_sums(wires, digits, array, sums, unit);
      for (int64_t column = 0; column < width; ++column) {
        effective[driven * columns + first + column] = static_cast<float>(sums[column]);
      }
    }
  }
  return effective;
}

}  // namespace polyarch::archs::crossbar
