#pragma once
// The planned power of a schedule over time, for a power-capped list scheduler: every placed op
// draws its estimated dynamic power (its energy over its duration) while it runs, and an op may
// start only where its power fits beside what already runs under the budget (the cap less the
// static power every unit draws). Why delays rather than throttling: under a chip-level cap a
// heterogeneous scheduler can trade concurrency for power with no voltage change at all, and
// the simulator can honour it with ordering dependencies alone (see schedule_heft).
#include <vector>

namespace polyarch::mapping {

struct PlannedSpan {
  double start_s = 0.0;
  double finish_s = 0.0;
  double watts = 0.0;
  int op = 0;  // program op index
};

struct PowerFit {
  double start_s = 0.0;
  // Ops that run in [earliest, start) and end by start: the ones the op must wait for.
  std::vector<int> waits_for;
  bool over_budget = false;  // the op alone exceeds the budget: it waits until nothing runs
};

class PowerBudget {
 public:
  explicit PowerBudget(double budget_w) : budget_w_(budget_w) {}

  // The earliest start at or after `earliest_s` where an op of `watts` for `duration_s` keeps
  // the planned power within the budget for its whole run.
  PowerFit earliest_fit(double earliest_s, double duration_s, double watts) const;
  void add(const PlannedSpan& span) { spans_.push_back(span); }
  // The highest planned dynamic power at any instant.
  double peak_w() const;

 private:
  double budget_w_;
  std::vector<PlannedSpan> spans_;
};

}  // namespace polyarch::mapping
