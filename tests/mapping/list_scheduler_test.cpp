#include "mapping/partition/list_scheduler.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/support/ir_builders.h"

namespace polyarch::mapping {
namespace {

using polyarch::test_support::make_op;
using polyarch::test_support::make_tensor;

// A fork-join graph: `src` feeds the independent `left` and `right`, both feed `join`.
struct ForkJoin {
  ir::Graph graph{"fork"};
  ForkJoin() {
    const ir::NodeId src = graph.add_op(make_op("src", ir::GemmAttrs{.m = 1, .n = 1, .k = 1}));
    const ir::NodeId src_out = graph.add_tensor(make_tensor("src.out"));
    graph.connect(src, src_out);
    const ir::NodeId join = graph.add_op(make_op("join", ir::GemmAttrs{.m = 1, .n = 1, .k = 1}));
    for (const std::string name : {"left", "right"}) {
      const ir::NodeId op = graph.add_op(make_op(name, ir::GemmAttrs{.m = 1, .n = 1, .k = 1}));
      const ir::NodeId out = graph.add_tensor(make_tensor(name + ".out"));
      graph.connect(src_out, op);
      graph.connect(op, out);
      graph.connect(out, join);
    }
  }
};

// A unit that runs every op in the seconds `costs` gives by op name (absent: cannot run it).
UnitCapability unit(const std::string& name, std::map<std::string, double> costs) {
  return {name, "test",
          [costs](const ir::Op& op) { return costs.count(op.name) > 0; },
          [costs](const ir::Op& op) -> std::optional<double> {
            auto found = costs.find(op.name);
            if (found == costs.end()) return std::nullopt;
            return found->second;
          }};
}

std::string unit_of(const ir::Graph& graph, const Schedule& schedule, const std::string& name,
                    const std::vector<UnitCapability>& units) {
  for (std::size_t index = 0; index < schedule.program.ops.size(); ++index) {
    if (graph.op(schedule.program.ops[index].node).name == name) {
      return units[static_cast<std::size_t>(schedule.ops[index].unit_index)].name;
    }
  }
  return "";
}

TEST(ListScheduler, IndependentOpsOverlapOnTwoUnits) {
  const ForkJoin fork;
  const std::vector<UnitCapability> units = {
      unit("a", {{"src", 1}, {"left", 4}, {"right", 4}, {"join", 1}}),
      unit("b", {{"src", 1}, {"left", 5}, {"right", 5}, {"join", 1}})};
  const auto schedule = schedule_heft(fork.graph, units, 0.0);
  ASSERT_TRUE(schedule);
  // src 1, then left on a [1, 5) and right on b [1, 6), join 1: makespan 7 (one unit: 10).
  EXPECT_DOUBLE_EQ(schedule->makespan_s, 7.0);
  EXPECT_NE(unit_of(fork.graph, *schedule, "left", units),
            unit_of(fork.graph, *schedule, "right", units));
}

TEST(ListScheduler, EachOpGoesWhereItFinishesEarliestAndNeverWhereItCannotRun) {
  const ForkJoin fork;
  const std::vector<UnitCapability> units = {
      unit("slow", {{"src", 10}, {"left", 10}, {"right", 10}, {"join", 10}}),
      unit("fast", {{"src", 1}, {"left", 1}, {"join", 1}})};  // cannot run `right`
  const auto schedule = schedule_heft(fork.graph, units, 0.5);
  ASSERT_TRUE(schedule);
  EXPECT_EQ(unit_of(fork.graph, *schedule, "right", units), "slow");
  EXPECT_EQ(unit_of(fork.graph, *schedule, "src", units), "fast");
  // Every unit's list is in start order and every op starts after its producers finish (plus
  // the hand-over between units).
  for (std::size_t index = 0; index < schedule->program.ops.size(); ++index) {
    for (int dep : schedule->program.ops[index].deps) {
      const ScheduledOp& producer = schedule->ops[static_cast<std::size_t>(dep)];
      const ScheduledOp& consumer = schedule->ops[index];
      const double hand_over = producer.unit_index == consumer.unit_index ? 0.0 : 0.5;
      EXPECT_GE(consumer.start_s, producer.finish_s + hand_over);
    }
  }
}

TEST(ListScheduler, AUnitWithoutEstimatesLeavesTheChoiceToTheFirstFitPartitioner) {
  const ForkJoin fork;
  std::vector<UnitCapability> units = {unit("a", {{"src", 1}, {"left", 1}, {"right", 1}, {"join", 1}})};
  units.front().estimate_seconds = nullptr;
  EXPECT_FALSE(schedule_heft(fork.graph, units, 0.0));
}

}  // namespace
}  // namespace polyarch::mapping
