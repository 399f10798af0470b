#pragma once
// A synthetic mapping problem with a known optimum for the search tests: latency is a bowl over
// three ordered dimensions plus a penalty on the unordered "order" dimension; points with
// a + b > 20 are invalid (a stand-in for buffer capacity).
#include <cmath>

#include "mapping/space/mapping_problem.h"

namespace polyarch::mapping::test {

class BowlProblem : public MappingProblem {
 public:
  BowlProblem() {
    std::vector<int64_t> range;
    for (int64_t v = 0; v < 16; ++v) range.push_back(v);
    space_ = MappingSpace({{"a", range, {}},
                           {"b", range, {}},
                           {"c", range, {}},
                           {"order", {0, 1, 2}, {"x", "y", "z"}}});
  }
  const MappingSpace& space() const override { return space_; }
  bool valid(const MappingPoint& p) const override {
    return space_.value(p, 0) + space_.value(p, 1) <= 20;
  }
  MappingCost evaluate(const MappingPoint& p) const override {
    const double a = static_cast<double>(space_.value(p, 0)) - 11;
    const double b = static_cast<double>(space_.value(p, 1)) - 7;
    const double c = static_cast<double>(space_.value(p, 2)) - 3;
    const double order = space_.value(p, 3) == 1 ? 0.0 : 4.0;
    MappingCost cost;
    cost.latency_s = 1.0 + a * a + 2 * b * b + 0.5 * c * c + order;
    // Energy falls as "a" grows, so energy and latency optima differ.
    cost.energy_j = 100.0 - 3.0 * static_cast<double>(space_.value(p, 0)) + std::abs(b);
    return cost;
  }
  double latency_lower_bound_s(const MappingPoint& p) const override {
    const double a = static_cast<double>(space_.value(p, 0)) - 11;
    return 1.0 + a * a;
  }

 private:
  MappingSpace space_;
};

}  // namespace polyarch::mapping::test
