#include "mapping/partition/list_scheduler.h"

#include <algorithm>
#include <limits>

#include "mapping/partition/power_budget.h"

namespace polyarch::mapping {

namespace {

constexpr double kCannot = std::numeric_limits<double>::infinity();

}  // namespace

std::optional<Schedule> schedule_heft(const ir::Graph& graph,
                                      const std::vector<UnitCapability>& units, double transfer_s,
                                      const PowerCap* power) {
  Schedule schedule;
  schedule.program = program_skeleton(graph, units.size());
  std::vector<ProgramOp>& ops = schedule.program.ops;
  const std::size_t count = ops.size();
  // cost[op][unit]: seconds, infinite where the unit cannot run the op.
  std::vector<std::vector<double>> cost(count, std::vector<double>(units.size(), kCannot));
  std::vector<double> mean_cost(count, 0.0);
  for (std::size_t index = 0; index < count; ++index) {
    const ir::Op& op = graph.op(ops[index].node);
    const std::vector<int> capable = capable_units(op, units);
    for (int unit : capable) {
      const auto& estimate = units[static_cast<std::size_t>(unit)].estimate_seconds;
      const std::optional<double> seconds = estimate ? estimate(op) : std::nullopt;
      if (!seconds) return std::nullopt;
      cost[index][static_cast<std::size_t>(unit)] = *seconds;
      mean_cost[index] += *seconds / static_cast<double>(capable.size());
    }
  }
  // Upward rank, from the graph's end: ops are in topological order, so successors come later.
  std::vector<std::vector<int>> successors(count);
  for (std::size_t index = 0; index < count; ++index) {
    for (int dep : ops[index].deps) successors[static_cast<std::size_t>(dep)].push_back(static_cast<int>(index));
  }
  std::vector<double> rank(count, 0.0);
  for (std::size_t back = count; back-- > 0;) {
    double longest = 0;
    for (int successor : successors[back]) {
      longest = std::max(longest, transfer_s + rank[static_cast<std::size_t>(successor)]);
    }
    rank[back] = mean_cost[back] + longest;
  }
  // List scheduling over the ready ops, highest rank first.
  schedule.ops.assign(count, {});
  std::vector<int> waiting(count, 0);
  for (std::size_t index = 0; index < count; ++index) {
    waiting[index] = static_cast<int>(ops[index].deps.size());
  }
  std::vector<int> ready;
  for (std::size_t index = 0; index < count; ++index) {
    if (waiting[index] == 0) ready.push_back(static_cast<int>(index));
  }
  std::vector<double> unit_free(units.size(), 0.0);
  PowerBudget budget(power ? power->cap_w - power->static_w : 0.0);
  PlannedPower planned;
  std::vector<std::vector<std::pair<double, int>>> starts(units.size());
  while (!ready.empty()) {
    auto pick = std::max_element(ready.begin(), ready.end(), [&](int a, int b) {
      const double rank_a = rank[static_cast<std::size_t>(a)];
      const double rank_b = rank[static_cast<std::size_t>(b)];
      return rank_a != rank_b ? rank_a < rank_b : a > b;  // earlier op wins a tie
    });
    const int index = *pick;
    ready.erase(pick);
    const auto op_index = static_cast<std::size_t>(index);
    int best_unit = -1;
    double best_start = 0;
    double best_finish = kCannot;
    double best_watts = 0;
    PowerFit best_fit;
    for (std::size_t unit = 0; unit < units.size(); ++unit) {
      if (cost[op_index][unit] == kCannot) continue;
      double start = unit_free[unit];
      for (int dep : ops[op_index].deps) {
        const ScheduledOp& producer = schedule.ops[static_cast<std::size_t>(dep)];
        const double hand_over = producer.unit_index == static_cast<int>(unit) ? 0.0 : transfer_s;
        start = std::max(start, producer.finish_s + hand_over);
      }
      const double duration = cost[op_index][unit];
      double watts = 0;
      PowerFit fit;
      if (power) {
        const double joules = power->op_joules(graph.op(ops[op_index].node), static_cast<int>(unit));
        watts = duration > 0 ? joules / duration : 0.0;
        fit = budget.earliest_fit(start, duration, watts);
        start = fit.start_s;
      }
      const double finish = start + duration;
      if (finish < best_finish) {
        best_unit = static_cast<int>(unit);
        best_start = start;
        best_finish = finish;
        best_watts = watts;
        best_fit = std::move(fit);
      }
    }
    if (power) {
      budget.add({best_start, best_finish, best_watts, index});
      planned.max_op_w = std::max(planned.max_op_w, power->static_w + best_watts);
      for (int blocker : best_fit.waits_for) {
        std::vector<int>& deps = ops[op_index].deps;
        if (std::find(deps.begin(), deps.end(), blocker) != deps.end()) continue;
        if (schedule.ops[static_cast<std::size_t>(blocker)].unit_index == best_unit) continue;
        deps.push_back(blocker);
        ++planned.serialised;
      }
      if (best_fit.over_budget) ++planned.ops_over_cap;
    }
    ops[op_index].unit_index = best_unit;
    schedule.ops[op_index] = {best_unit, best_start, best_finish};
    unit_free[static_cast<std::size_t>(best_unit)] = best_finish;
    starts[static_cast<std::size_t>(best_unit)].push_back({best_start, index});
    schedule.makespan_s = std::max(schedule.makespan_s, best_finish);
    for (int successor : successors[op_index]) {
      if (--waiting[static_cast<std::size_t>(successor)] == 0) ready.push_back(successor);
    }
  }
  if (power) {
    planned.peak_w = power->static_w + budget.peak_w();
    schedule.power = planned;
  }
  for (std::size_t unit = 0; unit < units.size(); ++unit) {
    // Already in start order (a unit's ops are appended as it frees up); kept stable.
    for (const auto& [start, index] : starts[unit]) schedule.program.per_unit[unit].push_back(index);
  }
  return schedule;
}

}  // namespace polyarch::mapping
