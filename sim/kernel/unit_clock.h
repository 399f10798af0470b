#pragma once
// Converts between simulated time and a unit's clock cycles. SystemC time is integral ticks of
// the time resolution (1 ps by default), which a clock period rarely divides (0.94 GHz is
// 1063.83 ps), so each conversion rounds once from an absolute cycle index instead of adding
// rounded periods: `time_of(n)` never drifts, however many cycles have passed.
#include <cmath>
#include <cstdint>
#include <systemc>

#include "compiler/support/error.h"

namespace polyarch::sim {

class UnitClock {
 public:
  explicit UnitClock(double clock_ghz) : clock_ghz_(clock_ghz) {
    if (!(clock_ghz > 0) || !std::isfinite(clock_ghz)) {
      throw_runtime({}, "clock frequency must be positive, got " + std::to_string(clock_ghz));
    }
    const long double ticks_per_second =
        1.0L / static_cast<long double>(sc_core::sc_get_time_resolution().to_seconds());
    ticks_per_cycle_ = ticks_per_second / (static_cast<long double>(clock_ghz) * 1e9L);
  }

  double clock_ghz() const { return clock_ghz_; }

  // Time of the rising edge that starts cycle `cycle`, counted from `origin`.
  sc_core::sc_time time_of(int64_t cycle, sc_core::sc_time origin = sc_core::SC_ZERO_TIME) const {
    return origin + sc_core::sc_time::from_value(ticks_for(cycle));
  }

  // The first cycle edge at or after `time`. A time within kToleranceTicks after an edge counts
  // as that edge: it is the rounding of a duration that was a whole number of cycles.
  int64_t cycles_at_or_after(sc_core::sc_time time) const {
    const long double ticks = static_cast<long double>(time.value());
    int64_t cycle = static_cast<int64_t>(std::ceil((ticks - kToleranceTicks) / ticks_per_cycle_));
    if (cycle < 0) cycle = 0;
    while (static_cast<long double>(ticks_for(cycle)) + kToleranceTicks < ticks) ++cycle;
    while (cycle > 0 && static_cast<long double>(ticks_for(cycle - 1)) + kToleranceTicks >= ticks) {
      --cycle;
    }
    return cycle;
  }

 private:
  static constexpr long double kToleranceTicks = 2.0L;

  uint64_t ticks_for(int64_t cycle) const {
    return static_cast<uint64_t>(std::llround(static_cast<long double>(cycle) * ticks_per_cycle_));
  }

  double clock_ghz_;
  long double ticks_per_cycle_ = 1.0L;
};

}  // namespace polyarch::sim
