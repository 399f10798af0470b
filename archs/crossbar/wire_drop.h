#pragma once
// What the wires of a crossbar array take from one read. Every cell's current flows along its
// row wire from the row's driver (at array column 0) and down its column wire to the ADC (below
// the array's last row), so a wire segment carries the currents of all cells beyond it. With
// currents I_rc, the row wire at column c sits rho sum_{s<=c} sum_{c'>=s} I_rc' below its
// driver, the column wire at row r rho sum_{s>=r} sum_{r'<=s} I_r'c above the ADC (the segments
// below a partial block's last row carry the column's whole current), and each cell conducts
// g_rc (d_r - row drop - column drop); cells of undriven rows conduct backwards. rho = r_wire /
// (R_on x top level): the drop in digit units per cell level of current. The network's exact
// currents are the fixed point of that map; starting from the ideal currents d_r g_rc, its
// first step is the first-order answer, and iterating (under-relaxed when a step overshoots)
// converges to the exact nodal solution. Equations and the check against a direct nodal solve:
// archs/crossbar/README.md ("Functional model").
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace polyarch::archs::crossbar {

struct WireGeometry {
  int64_t array_rows = 0;     // rows of one array (the column wire's length in pitches)
  int64_t array_columns = 0;  // columns of one array: physical column c sits at c % this
  double rho = 0.0;           // r_wire / (R_on x top level)
  // Iterate until no cell's current moves by more than this fraction of the largest ideal one.
  double tolerance = 1e-7;
  int64_t max_iterations = 200;
  // 1: stop after the first step (the first-order answer).
  bool first_order_only = false;
};

// The column currents ([columns]) of one read of one row block: `digits` ([block rows], each
// row's DAC digit), `conductance` ([block rows x columns], cell levels). Throws a runtime error
// naming `unit` when the network does not settle (the wires would take most of the drive).
void wire_column_sums(const WireGeometry& wires, std::span<const double> digits,
                      std::span<const float> conductance, std::span<double> column_sums,
                      const std::string& unit);

// The network is linear in the drive, so a read's column currents are sum_r d_r T_rc, T_rc the
// current column c delivers when row r alone is driven at one digit (the other rows held at
// zero). T ([block rows x columns]) from one solve per row and array (arrays share no wire):
// every read is then a plain product with T, exactly the network's answer.
std::vector<float> effective_conductance(const WireGeometry& wires,
                                         std::span<const float> conductance, int64_t rows,
                                         const std::string& unit);

}  // namespace polyarch::archs::crossbar
