#include "mapping/partition/list_scheduler.h"

#include <algorithm>
#include <limits>

#include "mapping/partition/power_budget.h"

namespace polyarch::mapping {

namespace {

constexpr double kCannot = std::numeric_limits<double>::infinity();

// One unit's busy intervals, by start (they never overlap, so ends are sorted too). HEFT's
// insertion policy: an op may start in the first idle gap at or after its data are ready that is
// long enough for it (Topcuoglu et al. 2002, section 4.1).
class UnitTimeline {
 public:
  double earliest_start(double ready_s, double duration_s) const {
    auto gap = std::upper_bound(busy_.begin(), busy_.end(), ready_s,
                                [](double time, const auto& span) { return time < span.second; });
    double start = ready_s;
    for (; gap != busy_.end(); ++gap) {
      if (start + duration_s <= gap->first) return start;
      start = std::max(start, gap->second);
    }
    return start;
  }
  void add(double start_s, double finish_s) {
    const std::pair<double, double> span{start_s, finish_s};
    busy_.insert(std::upper_bound(busy_.begin(), busy_.end(), span), span);
  }

 private:
  std::vector<std::pair<double, double>> busy_;
};

// Everything HEFT knows before it places an op, for the graph's ops once (not per micro-batch).
struct Estimates {
  std::vector<std::vector<double>> cost;        // [op][unit] seconds; kCannot where it cannot run
  std::vector<std::vector<int64_t>> dep_bytes;  // [op][dep position] bytes the dep hands over
  std::vector<double> rank;                     // upward rank
};

std::optional<Estimates> estimate(const ir::Graph& graph, const Program& skeleton,
                                  const std::vector<UnitCapability>& units,
                                  const TransferModel& transfer) {
  const std::size_t count = skeleton.ops.size();
  Estimates estimates;
  estimates.cost.assign(count, std::vector<double>(units.size(), kCannot));
  estimates.dep_bytes.resize(count);
  std::vector<double> mean_cost(count, 0.0);
  std::vector<std::vector<std::pair<int, int64_t>>> successors(count);
  for (std::size_t index = 0; index < count; ++index) {
    const ProgramOp& program_op = skeleton.ops[index];
    const ir::Op& op = graph.op(program_op.node);
    const std::vector<int> capable = capable_units(op, units);
    for (int unit : capable) {
      const auto& estimate_seconds = units[static_cast<std::size_t>(unit)].estimate_seconds;
      const std::optional<double> seconds = estimate_seconds ? estimate_seconds(op) : std::nullopt;
      if (!seconds) return std::nullopt;
      estimates.cost[index][static_cast<std::size_t>(unit)] = *seconds;
      mean_cost[index] += *seconds / static_cast<double>(capable.size());
    }
    for (int dep : program_op.deps) {
      const int64_t bytes = dependency_bytes(
          graph, skeleton.ops[static_cast<std::size_t>(dep)].node, program_op.node);
      estimates.dep_bytes[index].push_back(bytes);
      successors[static_cast<std::size_t>(dep)].push_back({static_cast<int>(index), bytes});
    }
  }
  // Upward rank, from the graph's end: ops are in topological order, so successors come later.
  estimates.rank.assign(count, 0.0);
  for (std::size_t back = count; back-- > 0;) {
    double longest = 0;
    for (const auto& [successor, bytes] : successors[back]) {
      longest = std::max(longest, transfer.cross_unit_seconds(bytes) +
                                      estimates.rank[static_cast<std::size_t>(successor)]);
    }
    estimates.rank[back] = mean_cost[back] + longest;
  }
  return estimates;
}

struct Placement {
  int unit = -1;
  double start_s = 0;
  double finish_s = kCannot;
  double watts = 0;
  PowerFit fit;
};

// The state of one list-scheduling run.
struct Planner {
  const ir::Graph& graph;
  const ScheduleOptions& options;
  const Estimates& estimates;
  Schedule& schedule;
  std::vector<UnitTimeline> timelines;
  PowerBudget budget;

  std::size_t base(std::size_t op_index) const { return op_index % estimates.rank.size(); }

  // Where `op_index` finishes earliest on `unit`, its data handed over and its power under the
  // cap; finish_s is kCannot where the unit cannot run it.
  Placement place_on(std::size_t op_index, std::size_t unit) const {
    Placement placement;
    const double duration = estimates.cost[base(op_index)][unit];
    if (duration == kCannot) return placement;
    const ProgramOp& program_op = schedule.program.ops[op_index];
    double ready = 0;
    for (std::size_t position = 0; position < program_op.deps.size(); ++position) {
      const ScheduledOp& producer =
          schedule.ops[static_cast<std::size_t>(program_op.deps[position])];
      const bool same_unit = producer.unit_index == static_cast<int>(unit);
      const int64_t bytes = estimates.dep_bytes[base(op_index)][position];
      ready = std::max(ready, producer.finish_s +
                                  (same_unit ? 0.0 : options.transfer.cross_unit_seconds(bytes)));
    }
    double start = timelines[unit].earliest_start(ready, duration);
    if (options.power) {
      const double joules =
          options.power->op_joules(graph.op(program_op.node), static_cast<int>(unit));
      placement.watts = duration > 0 ? joules / duration : 0.0;
      // A gap where the power fits: alternate between the two until both hold (each only moves
      // the start later). The ops the cap waited for on the way are its blockers.
      while (true) {
        PowerFit fit = budget.earliest_fit(start, duration, placement.watts);
        placement.fit.over_budget = placement.fit.over_budget || fit.over_budget;
        for (int blocker : fit.waits_for) placement.fit.waits_for.push_back(blocker);
        const double gap_start = timelines[unit].earliest_start(fit.start_s, duration);
        start = fit.start_s;
        if (gap_start == fit.start_s) break;
        start = gap_start;
      }
      placement.fit.start_s = start;
    }
    placement.unit = static_cast<int>(unit);
    placement.start_s = start;
    placement.finish_s = start + duration;
    return placement;
  }

  // Records the placement: the op's deps get their transfer delays, the cap's blockers become
  // deps (with no delay: they order, not feed).
  void commit(std::size_t op_index, Placement placement, PlannedPower& planned) {
    ProgramOp& program_op = schedule.program.ops[op_index];
    program_op.unit_index = placement.unit;
    program_op.dep_delay_s.assign(program_op.deps.size(), 0.0);
    for (std::size_t position = 0; position < program_op.deps.size(); ++position) {
      const ScheduledOp& producer =
          schedule.ops[static_cast<std::size_t>(program_op.deps[position])];
      if (producer.unit_index == placement.unit) continue;
      const int64_t bytes = estimates.dep_bytes[base(op_index)][position];
      program_op.dep_delay_s[position] = options.transfer.cross_unit_seconds(bytes);
      ++schedule.transfers.count;
      schedule.transfers.bytes += bytes;
      schedule.transfers.seconds += program_op.dep_delay_s[position];
      schedule.transfers.copy_seconds += options.transfer.copy_seconds(bytes);
    }
    if (options.power) {
      const int index = static_cast<int>(op_index);
      budget.add({placement.start_s, placement.finish_s, placement.watts, index});
      planned.max_op_w = std::max(planned.max_op_w, options.power->static_w + placement.watts);
      for (int blocker : placement.fit.waits_for) {
        std::vector<int>& deps = program_op.deps;
        if (std::find(deps.begin(), deps.end(), blocker) != deps.end()) continue;
        if (schedule.ops[static_cast<std::size_t>(blocker)].unit_index == placement.unit) continue;
        deps.push_back(blocker);
        program_op.dep_delay_s.push_back(0.0);
        ++planned.serialised;
      }
      if (placement.fit.over_budget) ++planned.ops_over_cap;
    }
    schedule.ops[op_index] = {placement.unit, placement.start_s, placement.finish_s};
    timelines[static_cast<std::size_t>(placement.unit)].add(placement.start_s, placement.finish_s);
    schedule.makespan_s = std::max(schedule.makespan_s, placement.finish_s);
    double& batch_finish =
        schedule.micro_batch_finish_s[static_cast<std::size_t>(program_op.micro_batch)];
    batch_finish = std::max(batch_finish, placement.finish_s);
  }
};

// The pipeline's period: the busiest unit's time in one micro-batch's own schedule, the interval
// at which a steady stream of inputs can enter.
double pipeline_period_s(const ir::Graph& graph, const std::vector<UnitCapability>& units,
                         const ScheduleOptions& options) {
  ScheduleOptions one = options;
  one.micro_batches = 1;
  const std::optional<Schedule> single = schedule_heft(graph, units, one);
  if (!single) return 0.0;
  std::vector<double> busy(units.size(), 0.0);
  for (const ScheduledOp& op : single->ops) {
    busy[static_cast<std::size_t>(op.unit_index)] += op.finish_s - op.start_s;
  }
  return *std::max_element(busy.begin(), busy.end());
}

}  // namespace

std::optional<Schedule> schedule_heft(const ir::Graph& graph,
                                      const std::vector<UnitCapability>& units,
                                      const ScheduleOptions& options) {
  const Program skeleton = program_skeleton(graph, units.size());
  const std::optional<Estimates> estimates = estimate(graph, skeleton, units, options.transfer);
  if (!estimates) return std::nullopt;
  const int micro_batches = std::max(1, options.micro_batches);
  Schedule schedule;
  schedule.program = replicate_micro_batches(skeleton, micro_batches);
  schedule.micro_batch_finish_s.assign(static_cast<std::size_t>(micro_batches), 0.0);
  const std::size_t count = schedule.program.ops.size();
  schedule.ops.assign(count, {});
  Planner planner{
      graph,
      options,
      *estimates,
      schedule,
      std::vector<UnitTimeline>(units.size()),
      PowerBudget(options.power ? options.power->cap_w - options.power->static_w : 0.0)};
  std::vector<std::vector<int>> successors(count);
  std::vector<int> waiting(count, 0);
  std::vector<int> ready;
  for (std::size_t index = 0; index < count; ++index) {
    const std::vector<int>& deps = schedule.program.ops[index].deps;
    for (int dep : deps)
      successors[static_cast<std::size_t>(dep)].push_back(static_cast<int>(index));
    waiting[index] = static_cast<int>(deps.size());
    if (deps.empty()) ready.push_back(static_cast<int>(index));
  }
  // List scheduling over the ready ops, highest priority first: the upward rank, less one
  // period per micro-batch before it (micro-batch k's ops compete as if k periods later, as in
  // a software pipeline), then the earliest micro-batch, then the earliest op.
  const double period_s = micro_batches > 1 ? pipeline_period_s(graph, units, options) : 0.0;
  const auto priority = [&](int op) {
    const auto index = static_cast<std::size_t>(op);
    return estimates->rank[planner.base(index)] -
           period_s * schedule.program.ops[index].micro_batch;
  };
  const auto later = [&](int a, int b) {
    const double priority_a = priority(a);
    const double priority_b = priority(b);
    if (priority_a != priority_b) return priority_a < priority_b;
    const int batch_a = schedule.program.ops[static_cast<std::size_t>(a)].micro_batch;
    const int batch_b = schedule.program.ops[static_cast<std::size_t>(b)].micro_batch;
    return batch_a != batch_b ? batch_a > batch_b : a > b;
  };
  PlannedPower planned;
  while (!ready.empty()) {
    auto pick = std::max_element(ready.begin(), ready.end(), later);
    const auto op_index = static_cast<std::size_t>(*pick);
    ready.erase(pick);
    Placement best;
    for (std::size_t unit = 0; unit < units.size(); ++unit) {
      Placement candidate = planner.place_on(op_index, unit);
      if (candidate.finish_s < best.finish_s) best = std::move(candidate);
    }
    planner.commit(op_index, std::move(best), planned);
    for (int successor : successors[op_index]) {
      if (--waiting[static_cast<std::size_t>(successor)] == 0) ready.push_back(successor);
    }
  }
  if (options.power) {
    planned.peak_w = options.power->static_w + planner.budget.peak_w();
    schedule.power = planned;
  }
  // Each unit issues its ops in start order (program order breaks ties: producers first).
  std::vector<std::vector<std::pair<double, int>>> starts(units.size());
  for (std::size_t index = 0; index < count; ++index) {
    starts[static_cast<std::size_t>(schedule.ops[index].unit_index)].push_back(
        {schedule.ops[index].start_s, static_cast<int>(index)});
  }
  for (std::size_t unit = 0; unit < units.size(); ++unit) {
    std::sort(starts[unit].begin(), starts[unit].end());
    for (const auto& [start, index] : starts[unit])
      schedule.program.per_unit[unit].push_back(index);
  }
  return schedule;
}

std::optional<Schedule> schedule_heft(const ir::Graph& graph,
                                      const std::vector<UnitCapability>& units, double transfer_s,
                                      const PowerCap* power) {
  ScheduleOptions options;
  options.transfer.hand_over_s = transfer_s;
  options.power = power;
  return schedule_heft(graph, units, options);
}

std::optional<double> single_unit_makespan(const ir::Graph& graph, const UnitCapability& unit) {
  double total = 0;
  for (ir::NodeId node : graph.topological_ops()) {
    const ir::Op& op = graph.op(node);
    if (!unit.supports || !unit.supports(op) || !unit.estimate_seconds) return std::nullopt;
    const std::optional<double> seconds = unit.estimate_seconds(op);
    if (!seconds) return std::nullopt;
    total += *seconds;
  }
  return total;
}

}  // namespace polyarch::mapping
