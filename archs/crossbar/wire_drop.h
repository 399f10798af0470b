#pragma once
// The voltage the wires of a crossbar array take from its cells, to first order in the wire
// resistance: every cell's current flows along its row wire from the row's driver (at array
// column 0) and down its column wire to the ADC (below the array's last row), so a wire segment
// carries the currents of all the cells beyond it, not only one cell's. From the ideal currents
// I_rc = d_r g_rc (row r driven at digit d_r, conductance g_rc in cell levels), the row wire at
// column c sits rho sum_{s<=c} sum_{c'>=s} I_rc' below its driver, the column wire at row r
// rho sum_{s>=r} sum_{r'<=s} I_r'c above the ADC (the segments below the block's last row carry
// the column's whole current), and each cell conducts g_rc (d_r - row drop - column drop): cells
// of undriven rows conduct backwards. rho = r_wire / (R_on x top level), the drop in digit
// units per cell level of current. Equations and the check against the exact nodal solution:
// archs/crossbar/README.md ("Functional model").
#include <cstdint>
#include <span>

namespace polyarch::archs::crossbar {

struct WireGeometry {
  int64_t array_rows = 0;     // rows of one array (the column wire's length in pitches)
  int64_t array_columns = 0;  // columns of one array: physical column c sits at c % this
  double rho = 0.0;           // r_wire / (R_on x top level)
};

// Subtracts from `column_sums` ([columns]) what the wires take from one read of one row block:
// `digits` ([block rows], the DAC digit of each row), `conductance` ([block rows x columns]).
void subtract_wire_drops(const WireGeometry& wires, std::span<const double> digits,
                         std::span<const float> conductance, std::span<double> column_sums);

}  // namespace polyarch::archs::crossbar
