#include "archs/crossbar/op_bound.h"

#include <utility>

namespace polyarch::archs::crossbar {

mapping::Bound crossbar_bound(const CrossbarBusy& busy) {
  // The presets balance read and conversion exactly (ISAAC: 100 ns reads, 128 columns at
  // 1.28 GS/s); a relative margin keeps floating-point rounding from picking a side.
  constexpr double kMargin = 1e-6;
  const std::pair<double, mapping::Bound> candidates[] = {
      {busy.adc_ns, mapping::Bound::kAdc},
      {busy.dram_ns, mapping::Bound::kDram},
      {busy.program_ns, mapping::Bound::kReprogramming},
      {busy.buffer_ns, mapping::Bound::kBuffer},
      {busy.bus_ns, mapping::Bound::kNoc}};
  double most = busy.read_ns;
  mapping::Bound bound = mapping::Bound::kCompute;
  for (const auto& [ns, candidate] : candidates) {
    if (ns > most * (1.0 + kMargin)) {
      most = ns;
      bound = candidate;
    }
  }
  return bound;
}

}  // namespace polyarch::archs::crossbar
