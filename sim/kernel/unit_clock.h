#pragma once
// Converts between simulated time and a unit's clock cycles. SystemC time is integral ticks of
// the time resolution (1 ps by default), which a clock period rarely divides (0.94 GHz is
// 1063.83 ps), so each conversion rounds once from an absolute cycle index instead of adding
// rounded periods: `time_of(n)` never drifts, however many cycles have passed.
//
// Under DVFS the frequency changes over time (a ClockSchedule): the clock is then a piecewise
// linear map between absolute (fractional) cycle counts and ticks, one segment per step, and
// "cycle n" is the n-th edge of the throttled clock. With no schedule there is one segment and
// every conversion is exactly the constant-frequency one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <systemc>
#include <vector>

#include "base/error.h"
#include "sim/kernel/clock_schedule.h"

namespace polyarch::sim {

class UnitClock {
 public:
  explicit UnitClock(double clock_ghz, const ClockSchedule* schedule = nullptr)
      : clock_ghz_(clock_ghz) {
    if (!(clock_ghz > 0) || !std::isfinite(clock_ghz)) {
      throw_runtime({}, "clock frequency must be positive, got " + std::to_string(clock_ghz));
    }
    const long double ticks_per_second =
        1.0L / static_cast<long double>(sc_core::sc_get_time_resolution().to_seconds());
    const long double nominal_ticks_per_cycle =
        ticks_per_second / (static_cast<long double>(clock_ghz) * 1e9L);
    segments_.push_back({0.0L, 0.0L, nominal_ticks_per_cycle});
    if (schedule) add_steps(*schedule, ticks_per_second, nominal_ticks_per_cycle);
  }

  double clock_ghz() const { return clock_ghz_; }  // nominal

  // Time of the rising edge that starts cycle `cycle`, counted from `origin`.
  sc_core::sc_time time_of(int64_t cycle, sc_core::sc_time origin = sc_core::SC_ZERO_TIME) const {
    if (segments_.size() == 1) {
      return origin + sc_core::sc_time::from_value(ticks_for(cycle));
    }
    const long double origin_cycle = cycle_at(static_cast<long double>(origin.value()));
    const long double ticks = ticks_at(origin_cycle + static_cast<long double>(cycle));
    return sc_core::sc_time::from_value(static_cast<uint64_t>(std::llround(ticks)));
  }

  // The first cycle edge at or after `time`. A time within kToleranceTicks after an edge counts
  // as that edge: it is the rounding of a duration that was a whole number of cycles.
  int64_t cycles_at_or_after(sc_core::sc_time time) const {
    const long double ticks = static_cast<long double>(time.value());
    int64_t cycle = static_cast<int64_t>(std::ceil(cycle_at(ticks - kToleranceTicks)));
    if (cycle < 0) cycle = 0;
    while (static_cast<long double>(ticks_for(cycle)) + kToleranceTicks < ticks) ++cycle;
    while (cycle > 0 && static_cast<long double>(ticks_for(cycle - 1)) + kToleranceTicks >= ticks) {
      --cycle;
    }
    return cycle;
  }

 private:
  static constexpr long double kToleranceTicks = 2.0L;

  // From `start_ticks` (and absolute cycle `start_cycle`) on, one cycle takes ticks_per_cycle.
  struct Segment {
    long double start_ticks;
    long double start_cycle;
    long double ticks_per_cycle;
  };

  void add_steps(const ClockSchedule& schedule, long double ticks_per_second,
                 long double nominal_ticks_per_cycle) {
    for (const ClockStep& step : schedule) {
      if (!(step.clock_scale > 0.0) || step.clock_scale > 1.0 || !(step.from_s >= 0.0)) {
        throw_runtime({}, "clock step needs 0 < clock_scale <= 1 and from_s >= 0");
      }
      const long double start_ticks =
          std::round(static_cast<long double>(step.from_s) * ticks_per_second);
      const Segment& last = segments_.back();
      if (start_ticks < last.start_ticks) throw_runtime({}, "clock steps must be in time order");
      const long double start_cycle =
          last.start_cycle + (start_ticks - last.start_ticks) / last.ticks_per_cycle;
      const long double ticks_per_cycle =
          nominal_ticks_per_cycle / static_cast<long double>(step.clock_scale);
      if (start_ticks == last.start_ticks) segments_.pop_back();
      segments_.push_back({start_ticks, start_cycle, ticks_per_cycle});
    }
  }

  const Segment& segment_of_cycle(long double cycle) const {
    auto after = std::upper_bound(
        segments_.begin(), segments_.end(), cycle,
        [](long double value, const Segment& segment) { return value < segment.start_cycle; });
    return after == segments_.begin() ? segments_.front() : *(after - 1);
  }

  // The absolute (fractional) cycle count at `ticks`, and its inverse.
  long double cycle_at(long double ticks) const {
    if (segments_.size() == 1) return ticks / segments_.front().ticks_per_cycle;
    auto after = std::upper_bound(
        segments_.begin(), segments_.end(), ticks,
        [](long double value, const Segment& segment) { return value < segment.start_ticks; });
    const Segment& segment = after == segments_.begin() ? segments_.front() : *(after - 1);
    return segment.start_cycle + (ticks - segment.start_ticks) / segment.ticks_per_cycle;
  }

  long double ticks_at(long double cycle) const {
    if (segments_.size() == 1) return cycle * segments_.front().ticks_per_cycle;
    const Segment& segment = segment_of_cycle(cycle);
    return segment.start_ticks + (cycle - segment.start_cycle) * segment.ticks_per_cycle;
  }

  uint64_t ticks_for(int64_t cycle) const {
    return static_cast<uint64_t>(std::llround(ticks_at(static_cast<long double>(cycle))));
  }

  double clock_ghz_;
  std::vector<Segment> segments_;  // the first starts at tick 0, cycle 0
};

}  // namespace polyarch::sim
