#include "mapping/partition/power_budget.h"

#include <algorithm>

namespace polyarch::mapping {

namespace {

// Power sums of floating-point estimates: a hair over the budget is still within it.
constexpr double kRelativeSlack = 1e-9;

// Planned power at instant t (spans are half-open: [start, finish)).
double power_at(const std::vector<PlannedSpan>& spans, double t) {
  double watts = 0.0;
  for (const PlannedSpan& span : spans) {
    if (span.start_s <= t && t < span.finish_s) watts += span.watts;
  }
  return watts;
}

// Whether `watts` more stays within `limit` at every instant of [start, start + duration).
bool fits(const std::vector<PlannedSpan>& spans, double start_s, double duration_s, double watts,
          double limit) {
  const double end_s = start_s + duration_s;
  // Planned power is a step function that only rises where a span starts: checking the window's
  // first instant and every start inside it covers its maximum.
  if (power_at(spans, start_s) + watts > limit) return false;
  for (const PlannedSpan& span : spans) {
    if (span.start_s > start_s && span.start_s < end_s &&
        power_at(spans, span.start_s) + watts > limit) {
      return false;
    }
  }
  return true;
}

}  // namespace

PowerFit PowerBudget::earliest_fit(double earliest_s, double duration_s, double watts) const {
  PowerFit fit;
  const double limit = budget_w_ * (1.0 + kRelativeSlack);
  // Only spans still running at `earliest_s` or later matter; list scheduling places ops
  // roughly in time order, so these are few.
  std::vector<PlannedSpan> live;
  for (const PlannedSpan& span : spans_) {
    if (span.finish_s > earliest_s) live.push_back(span);
  }
  // Candidate starts: the earliest one, then every instant where a live span ends.
  std::vector<double> candidates{earliest_s};
  double last_finish = earliest_s;
  for (const PlannedSpan& span : live) {
    candidates.push_back(span.finish_s);
    last_finish = std::max(last_finish, span.finish_s);
  }
  std::sort(candidates.begin(), candidates.end());
  fit.over_budget = watts > limit;
  fit.start_s = last_finish;  // alone: after everything planned so far
  if (!fit.over_budget) {
    for (double start : candidates) {
      if (fits(live, start, duration_s, watts, limit)) {
        fit.start_s = start;
        break;
      }
    }
  }
  for (const PlannedSpan& span : live) {
    if (span.start_s < fit.start_s && span.finish_s <= fit.start_s && fit.start_s > earliest_s) {
      fit.waits_for.push_back(span.op);
    }
  }
  return fit;
}

double PowerBudget::peak_w() const {
  double peak = 0.0;
  for (const PlannedSpan& span : spans_) peak = std::max(peak, power_at(spans_, span.start_s));
  return peak;
}

}  // namespace polyarch::mapping
