#include "sim/energy/clock_network.h"

namespace polyarch::sim {

namespace {

constexpr double kPjToJ = 1e-12;

}  // namespace

double clock_network_j(const TechTable& tech, double clocked_bits, int64_t cycles) {
  return clocked_bits * static_cast<double>(cycles) * tech.clock_pj_per_bit_cycle() * kPjToJ;
}

}  // namespace polyarch::sim
