#include "mapping/partition/power_budget.h"

#include <gtest/gtest.h>

namespace polyarch::mapping {
namespace {

TEST(PowerBudget, AnEmptyPlanTakesAnOpAtOnce) {
  const PowerBudget budget(100.0);
  const PowerFit fit = budget.earliest_fit(2.0, 3.0, 80.0);
  EXPECT_DOUBLE_EQ(fit.start_s, 2.0);
  EXPECT_TRUE(fit.waits_for.empty());
  EXPECT_FALSE(fit.over_budget);
}

TEST(PowerBudget, WaitsUntilEnoughRunningOpsHaveEnded) {
  PowerBudget budget(100.0);
  budget.add({0.0, 4.0, 50.0, 0});
  budget.add({1.0, 6.0, 30.0, 1});
  // 20 W fits beside both (80 W); 30 W fits once op 0 ends at 4; 75 W once op 1 ends at 6 too.
  EXPECT_DOUBLE_EQ(budget.earliest_fit(1.0, 2.0, 20.0).start_s, 1.0);
  const PowerFit at_four = budget.earliest_fit(1.0, 2.0, 30.0);
  EXPECT_DOUBLE_EQ(at_four.start_s, 4.0);
  EXPECT_EQ(at_four.waits_for, (std::vector<int>{0}));
  const PowerFit at_six = budget.earliest_fit(1.0, 2.0, 75.0);
  EXPECT_DOUBLE_EQ(at_six.start_s, 6.0);
  EXPECT_EQ(at_six.waits_for, (std::vector<int>{0, 1}));
}

TEST(PowerBudget, AWindowMustFitWhereALaterOpStarts) {
  PowerBudget budget(100.0);
  budget.add({5.0, 8.0, 70.0, 0});
  // Free at 0, but an op of 6 s would overlap the 70 W op starting at 5: it must go after it.
  EXPECT_DOUBLE_EQ(budget.earliest_fit(0.0, 6.0, 40.0).start_s, 8.0);
  // A 5 s op ends as it starts.
  EXPECT_DOUBLE_EQ(budget.earliest_fit(0.0, 5.0, 40.0).start_s, 0.0);
}

TEST(PowerBudget, AnOpOverTheBudgetRunsAfterEverythingPlanned) {
  PowerBudget budget(100.0);
  budget.add({0.0, 2.0, 10.0, 0});
  budget.add({1.0, 5.0, 10.0, 1});
  const PowerFit fit = budget.earliest_fit(0.5, 1.0, 150.0);
  EXPECT_TRUE(fit.over_budget);
  EXPECT_DOUBLE_EQ(fit.start_s, 5.0);
  EXPECT_EQ(fit.waits_for, (std::vector<int>{0, 1}));
}

TEST(PowerBudget, PeakIsTheHighestSumOfOverlappingOps) {
  PowerBudget budget(1000.0);
  budget.add({0.0, 4.0, 50.0, 0});
  budget.add({1.0, 3.0, 30.0, 1});
  budget.add({3.0, 6.0, 40.0, 2});
  EXPECT_DOUBLE_EQ(budget.peak_w(), 90.0);  // ops 0 and 2 during [3, 4); op 1 ends at 3
}

}  // namespace
}  // namespace polyarch::mapping
