#include "sweep/pareto.h"

#include <gtest/gtest.h>

namespace polyarch::sweep {
namespace {

TEST(ParetoFront, KeepsOnlyPointsNoOtherBeatsEverywhere) {
  // (latency, energy): a..e on a hand-drawn front, f and g dominated, h a duplicate of b.
  std::vector<std::vector<double>> costs = {
      {1.0, 9.0},  // a: fastest
      {2.0, 5.0},  // b
      {4.0, 4.0},  // c
      {6.0, 2.0},  // d
      {9.0, 1.0},  // e: most frugal
      {3.0, 6.0},  // f: b is better in both
      {9.0, 9.0},  // g: dominated by everything
      {2.0, 5.0},  // h: equal to b, so neither dominates the other
  };
  EXPECT_EQ(pareto_front(costs), (std::vector<std::size_t>{0, 1, 2, 3, 4, 7}));
}

TEST(ParetoFront, OneObjectiveKeepsAllMinima) {
  EXPECT_EQ(pareto_front({{3.0}, {1.0}, {2.0}, {1.0}}), (std::vector<std::size_t>{1, 3}));
}

TEST(ParetoFront, WorseInOneObjectiveOnlyStillDominated) {
  EXPECT_EQ(pareto_front({{1.0, 1.0, 1.0}, {1.0, 1.0, 2.0}}), (std::vector<std::size_t>{0}));
  EXPECT_TRUE(pareto_front({}).empty());
}

}  // namespace
}  // namespace polyarch::sweep
