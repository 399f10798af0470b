// The crossbar's wire model against the exact nodal solution of the same resistive network (row
// wires from each driver, column wires to each ADC, a cell between every pair of crossing
// nodes), solved here by Gaussian elimination: the model's iteration reaches it, and its first
// step alone (first order) keeps all but a second-order remainder of what the wires take. A
// model that charged each cell only for its own current along its path would miss most of the
// drop (every segment carries the currents of all cells beyond it).
#include "archs/crossbar/wire_drop.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "base/error.h"
#include "base/random_draw.h"

namespace polyarch::archs::crossbar {
namespace {

struct Network {
  int64_t rows = 0, columns = 0, array_rows = 0;
  std::vector<double> digits;       // [rows]
  std::vector<float> conductance;   // [rows x columns], cell levels
};

Network random_network(int64_t rows, int64_t columns, int64_t array_rows, uint64_t seed) {
  std::mt19937_64 engine(seed);
  Network network{rows, columns, array_rows, std::vector<double>(rows),
                  std::vector<float>(rows * columns)};
  for (double& digit : network.digits) digit = polyarch::random_real(engine, 0.0, 1.0) < 0.6;
  for (float& g : network.conductance) {
    g = static_cast<float>(std::floor(polyarch::random_real(engine, 0.0, 4.0)));  // levels 0..3
  }
  return network;
}

// Solves A x = b in place (partial pivoting).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t row = col + 1; row < n; ++row) {
      if (std::fabs(a[row][col]) > std::fabs(a[pivot][col])) pivot = row;
    }
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    for (std::size_t row = col + 1; row < n; ++row) {
      const double factor = a[row][col] / a[col][col];
      if (factor == 0.0) continue;
      for (std::size_t k = col; k < n; ++k) a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t row = n; row-- > 0;) {
    double sum = b[row];
    for (std::size_t k = row + 1; k < n; ++k) sum -= a[row][k] * x[k];
    x[row] = sum / a[row][row];
  }
  return x;
}

// Kirchhoff's current law at every row-wire node u(r, c) and column-wire node w(r, c); wire
// segments have resistance rho (cell conductances in levels), the last row's column node
// reaches the ADC's virtual ground through 1 + array_rows - rows segments. Returns the current
// each column delivers to its ADC.
std::vector<double> nodal_column_currents(const Network& net, double rho) {
  const int64_t nodes = net.rows * net.columns;
  auto u = [&](int64_t r, int64_t c) { return static_cast<std::size_t>(r * net.columns + c); };
  auto w = [&](int64_t r, int64_t c) { return static_cast<std::size_t>(nodes + r * net.columns + c); };
  std::vector<std::vector<double>> a(2 * nodes, std::vector<double>(2 * nodes, 0.0));
  std::vector<double> b(2 * nodes, 0.0);
  const double wire = 1.0 / rho;
  const double to_adc = 1.0 / (rho * double(1 + net.array_rows - net.rows));
  for (int64_t r = 0; r < net.rows; ++r) {
    for (int64_t c = 0; c < net.columns; ++c) {
      const double g = net.conductance[r * net.columns + c];
      // Row node: left segment (the driver at c = 0), right segment, the cell.
      a[u(r, c)][u(r, c)] += wire + g;
      if (c == 0) b[u(r, c)] += wire * net.digits[r];
      else a[u(r, c)][u(r, c - 1)] -= wire;
      if (c + 1 < net.columns) {
        a[u(r, c)][u(r, c)] += wire;
        a[u(r, c)][u(r, c + 1)] -= wire;
      }
      a[u(r, c)][w(r, c)] -= g;
      // Column node: the cell, the segment above, the segment below (to the ADC at the end).
      a[w(r, c)][w(r, c)] += g;
      a[w(r, c)][u(r, c)] -= g;
      if (r > 0) {
        a[w(r, c)][w(r, c)] += wire;
        a[w(r, c)][w(r - 1, c)] -= wire;
      }
      if (r + 1 < net.rows) {
        a[w(r, c)][w(r, c)] += wire;
        a[w(r, c)][w(r + 1, c)] -= wire;
      } else {
        a[w(r, c)][w(r, c)] += to_adc;
      }
    }
  }
  const std::vector<double> voltage = solve(std::move(a), std::move(b));
  std::vector<double> currents(net.columns);
  for (int64_t c = 0; c < net.columns; ++c) currents[c] = voltage[w(net.rows - 1, c)] * to_adc;
  return currents;
}

std::vector<double> ideal_sums(const Network& net) {
  std::vector<double> sums(net.columns, 0.0);
  for (int64_t r = 0; r < net.rows; ++r) {
    for (int64_t c = 0; c < net.columns; ++c) sums[c] += net.digits[r] * net.conductance[r * net.columns + c];
  }
  return sums;
}

std::vector<double> model_sums(const Network& net, double rho, bool first_order_only) {
  std::vector<double> sums(net.columns);
  WireGeometry wires{net.array_rows, net.columns, rho};
  wires.first_order_only = first_order_only;
  wire_column_sums(wires, net.digits, net.conductance, sums, "xbar");
  return sums;
}

std::vector<double> first_order_sums(const Network& net, double rho) {
  return model_sums(net, rho, true);
}

// sum over columns of |a - b|
double distance(const std::vector<double>& a, const std::vector<double>& b) {
  double total = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) total += std::fabs(a[i] - b[i]);
  return total;
}

TEST(WireDrop, FirstOrderKeepsAllButASecondOrderRemainderOfTheExactDrop) {
  for (const auto& [rows, array_rows] : {std::pair<int64_t, int64_t>{12, 12}, {9, 12}}) {
    const Network net = random_network(rows, 10, array_rows, 3 + rows);
    double previous_remainder = 0.0;
    for (double rho : {2e-4, 1e-4}) {
      const std::vector<double> exact = nodal_column_currents(net, rho);
      const double drop = distance(ideal_sums(net), exact);
      const double remainder = distance(first_order_sums(net, rho), exact);
      EXPECT_GT(drop, 0.0);
      EXPECT_LT(remainder, 0.05 * drop) << rows << " rows, rho " << rho;
      if (previous_remainder > 0.0) {
        // Halving the wire resistance quarters what first order leaves out.
        EXPECT_NEAR(remainder / previous_remainder, 0.25, 0.05) << rows << " rows";
      }
      previous_remainder = remainder;
    }
  }
}

TEST(WireDrop, TheIterationReachesTheExactNodalSolution) {
  // From a few percent of the drive taken to most of it (where first order is far off).
  for (double rho : {4e-4, 4e-3, 2e-2}) {
    const Network net = random_network(12, 10, 16, 5);
    const std::vector<double> exact = nodal_column_currents(net, rho);
    const std::vector<double> got = model_sums(net, rho, false);
    const double drop = distance(ideal_sums(net), exact);
    EXPECT_LT(distance(got, exact), 1e-5 * drop) << rho;
    if (rho > 1e-3) EXPECT_GT(distance(first_order_sums(net, rho), exact), 0.1 * drop) << rho;
  }
}

// The network is linear: the unit-drive conductances T, summed with a read's digits, give the
// currents the network delivers for that read; two arrays side by side share no wire.
TEST(WireDrop, UnitDrivesSuperposeToTheNetworksCurrents) {
  const Network net = random_network(12, 20, 16, 7);
  const WireGeometry wires{16, 10, 1e-3};
  const std::vector<float> t = effective_conductance(wires, net.conductance, 12, "xbar");
  std::vector<double> direct(20);
  wire_column_sums(wires, net.digits, net.conductance, direct, "xbar");
  for (int64_t c = 0; c < 20; ++c) {
    double superposed = 0.0;
    for (int64_t r = 0; r < 12; ++r) superposed += net.digits[r] * t[r * 20 + c];
    EXPECT_NEAR(superposed, direct[c], 1e-5 * std::fabs(direct[c]) + 1e-6) << c;
  }
}

TEST(WireDrop, ANetworkThatCannotSettleIsRefusedByName) {
  const Network net = random_network(12, 10, 12, 6);
  WireGeometry wires{12, 10, 10.0};
  wires.max_iterations = 20;
  std::vector<double> sums(10);
  try {
    wire_column_sums(wires, net.digits, net.conductance, sums, "xbar");
    ADD_FAILURE() << "expected a refusal";
  } catch (const polyarch::Error& error) {
    EXPECT_EQ(error.where().key_path, "xbar");
    EXPECT_NE(error.message().find("wire_resistance_ohm"), std::string::npos);
  }
}

TEST(WireDrop, ASegmentCarriesEveryCurrentBeyondIt) {
  // One driven row of four top-level cells over one array row: the row wire's segments carry
  // 4, 3, 2, 1 cell currents (3 levels each) and the node at column c sits at rho x the sum of
  // the segments up to it; each column wire carries only its own cell's current over one
  // segment. Column c loses 3 x (row drop + column drop).
  const Network net{1, 4, 1, {1.0}, {3.0f, 3.0f, 3.0f, 3.0f}};
  const double rho = 1e-3;
  const std::vector<double> sums = first_order_sums(net, rho);
  const double segment_currents[] = {12.0, 9.0, 6.0, 3.0};
  double row_drop = 0.0;
  for (int c = 0; c < 4; ++c) {
    row_drop += rho * segment_currents[c];
    EXPECT_NEAR(sums[c], 3.0 - 3.0 * (row_drop + rho * 3.0), 1e-12) << c;
  }
}

}  // namespace
}  // namespace polyarch::archs::crossbar
