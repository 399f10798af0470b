// UnitClock: constant-frequency conversions, and a DVFS schedule that stretches cycles.
#include "sim/kernel/unit_clock.h"

#include <gtest/gtest.h>

namespace polyarch::sim {
namespace {

sc_core::sc_time ns(double value) { return sc_core::sc_time(value, sc_core::SC_NS); }

TEST(UnitClock, ConstantFrequencyRoundsOnceFromTheAbsoluteCycle) {
  const UnitClock clock(0.94);  // 1063.83 ps cycles
  EXPECT_EQ(clock.time_of(1000000).value(), 1063829787u);
  EXPECT_EQ(clock.cycles_at_or_after(clock.time_of(1000000)), 1000000);
  EXPECT_EQ(clock.time_of(3, ns(10)), ns(10) + sc_core::sc_time::from_value(3191));
}

TEST(UnitClock, EmptyScheduleIsTheNominalClock) {
  const ClockSchedule none;
  const UnitClock nominal(1.0);
  const UnitClock scheduled(1.0, &none);
  for (int64_t cycle : {0, 1, 999, 123456}) {
    EXPECT_EQ(scheduled.time_of(cycle), nominal.time_of(cycle));
    EXPECT_EQ(scheduled.cycles_at_or_after(nominal.time_of(cycle)), cycle);
  }
}

TEST(UnitClock, ThrottledStepsStretchCyclesFromTheirStartOn) {
  // 1 GHz until 1 us, half speed until 3 us, full speed again after.
  const ClockSchedule schedule = {{1e-6, 0.5}, {3e-6, 1.0}};
  const UnitClock clock(1.0, &schedule);
  EXPECT_EQ(clock.time_of(1000), ns(1000));
  EXPECT_EQ(clock.time_of(1500), ns(2000));  // 500 cycles of 2 ns
  EXPECT_EQ(clock.time_of(2000), ns(3000));
  EXPECT_EQ(clock.time_of(2500), ns(3500));
  EXPECT_EQ(clock.cycles_at_or_after(ns(2001)), 1501);
  EXPECT_EQ(clock.cycles_at_or_after(ns(3500)), 2500);
  // 100 cycles counted from inside the slow step: 200 ns.
  EXPECT_EQ(clock.time_of(100, ns(1200)), ns(1400));
  // Across the step back to full speed: 50 slow cycles (100 ns) then 50 fast (50 ns).
  EXPECT_EQ(clock.time_of(100, ns(2900)), ns(3050));
  EXPECT_DOUBLE_EQ(clock.clock_ghz(), 1.0);
}

TEST(UnitClock, BadStepsAreRejected) {
  const ClockSchedule zero = {{1e-6, 0.0}};
  EXPECT_THROW(UnitClock(1.0, &zero), Error);
  const ClockSchedule backwards = {{2e-6, 0.5}, {1e-6, 1.0}};
  EXPECT_THROW(UnitClock(1.0, &backwards), Error);
}

}  // namespace
}  // namespace polyarch::sim
