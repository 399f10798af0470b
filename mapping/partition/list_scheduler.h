#pragma once
// Heterogeneous partitioning and scheduling (HEFT, Topcuoglu et al., IEEE TPDS 2002): every op
// goes to the unit where it finishes earliest, ops taken in order of upward rank (their mean
// cost over capable units plus the longest path to the graph's end, transfers included), so the
// critical path is placed first and independent ops overlap on different units. An op may go in
// an idle gap between ops already placed on a unit (HEFT's insertion policy). Costs come from
// each unit's analytical model; a dependency between ops on different units costs what the
// TransferModel says (mapping/partition/transfer_cost.h), one on the same unit nothing. An op
// never goes to a unit that does not support it.
//
// Layer pipelining: with `micro_batches` N > 1 the graph is scheduled N times as independent
// inputs. Micro-batch k's ops take priority rank - k x period, the period being the busiest
// unit's time in one micro-batch's own schedule (the interval at which a software pipeline
// admits inputs), so layers of consecutive micro-batches run at once on different units and the
// bottleneck unit stays busy: a two-stage chain with stages of a and b seconds on two units ends
// at a + b + (N - 1) max(a, b).
#include <functional>
#include <limits>
#include <vector>

#include "mapping/partition/transfer_cost.h"
#include "mapping/program/program.h"

namespace polyarch::mapping {

struct ScheduledOp {
  int unit_index = 0;
  double start_s = 0;
  double finish_s = 0;
};

// A chip-level power cap (mapping/partition/power_budget.h). Each op draws its planned energy
// evenly over its estimated run; the static power is drawn all the time. An op starts only where
// its power fits beside the ops already running; where the cap made it wait for an op on
// another unit, that op becomes one of its dependencies, so the simulator keeps the order.
struct PowerCap {
  double cap_w = std::numeric_limits<double>::infinity();  // infinite: plan power, cap nothing
  double static_w = 0.0;
  std::function<double(const ir::Op& op, int unit)> op_joules;
};

struct PlannedPower {
  double peak_w = 0.0;  // static included
  // The most power one op draws on the unit it was given, static included: no schedule of
  // these assignments can peak lower (the lowest cap scheduling alone can meet).
  double max_op_w = 0.0;
  int serialised = 0;    // dependencies the cap added
  int ops_over_cap = 0;  // ops whose power alone exceeds the budget: they run with nothing beside
};

struct ScheduleOptions {
  TransferModel transfer;
  int micro_batches = 1;            // > 1: that many inputs, pipelined over the units
  const PowerCap* power = nullptr;  // null: no cap, power not planned
};

struct Schedule {
  Program program;  // each unit's ops ordered by start; deps carry their transfer delays
  std::vector<ScheduledOp> ops;  // by program op index
  double makespan_s = 0;
  std::optional<PlannedPower> power;         // with a PowerCap
  TransferTotals transfers;                  // the cross-unit data dependencies of the plan
  std::vector<double> micro_batch_finish_s;  // when each micro-batch's last op finishes
};

// HEFT when every unit that supports an op gives an estimate for it; nullopt otherwise (the
// caller falls back to partition_graph). Ties go to the earlier unit and op: deterministic.
// With `power`, each op goes to the unit where it finishes earliest under the cap.
std::optional<Schedule> schedule_heft(const ir::Graph& graph,
                                      const std::vector<UnitCapability>& units,
                                      const ScheduleOptions& options);

// The same with a fixed hand-over of `transfer_s` per cross-unit dependency and one input.
std::optional<Schedule> schedule_heft(const ir::Graph& graph,
                                      const std::vector<UnitCapability>& units, double transfer_s,
                                      const PowerCap* power = nullptr);

// The graph on `unit` alone, op after op, by its estimates: the single-unit baseline. nullopt
// when the unit cannot run, or estimate, every op.
std::optional<double> single_unit_makespan(const ir::Graph& graph, const UnitCapability& unit);

}  // namespace polyarch::mapping
