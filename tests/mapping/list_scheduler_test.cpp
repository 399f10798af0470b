#include "mapping/partition/list_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// Each op draws `watts` on any unit: its energy is watts times its run there.
PowerCap cap_of(double cap_w, double watts, double static_w = 0.0) {
  PowerCap cap;
  cap.cap_w = cap_w;
  cap.static_w = static_w;
  cap.op_joules = [watts](const ir::Op&, int) { return watts; };  // 1 s ops: J = W
  return cap;
}

std::size_t index_of(const ir::Graph& graph, const Schedule& schedule, const std::string& name) {
  for (std::size_t index = 0; index < schedule.program.ops.size(); ++index) {
    if (graph.op(schedule.program.ops[index].node).name == name) return index;
  }
  return schedule.program.ops.size();
}

TEST(ListScheduler, PowerCapSerialisesOpsOnDifferentUnitsThatWouldExceedIt) {
  const ForkJoin fork;
  // left only on a, right only on b: uncapped they overlap at 2 x 60 W.
  const std::vector<UnitCapability> units = {
      unit("a", {{"src", 1}, {"left", 1}, {"join", 1}}),
      unit("b", {{"right", 1}})};
  const PowerCap loose = cap_of(150.0, 60.0);
  const auto uncapped = schedule_heft(fork.graph, units, 0.0, &loose);
  ASSERT_TRUE(uncapped);
  EXPECT_DOUBLE_EQ(uncapped->makespan_s, 3.0);
  EXPECT_DOUBLE_EQ(uncapped->power->peak_w, 120.0);
  EXPECT_EQ(uncapped->power->serialised, 0);

  const PowerCap tight = cap_of(100.0, 60.0);
  const auto capped = schedule_heft(fork.graph, units, 0.0, &tight);
  ASSERT_TRUE(capped);
  EXPECT_DOUBLE_EQ(capped->makespan_s, 4.0);
  EXPECT_DOUBLE_EQ(capped->power->peak_w, 60.0);
  EXPECT_EQ(capped->power->serialised, 1);
  // The later of left and right now depends on the earlier, so the simulator keeps them apart.
  const std::size_t left = index_of(fork.graph, *capped, "left");
  const std::size_t right = index_of(fork.graph, *capped, "right");
  const bool right_first = capped->ops[right].start_s < capped->ops[left].start_s;
  const std::vector<int>& later_deps = capped->program.ops[right_first ? left : right].deps;
  EXPECT_NE(std::find(later_deps.begin(), later_deps.end(),
                      static_cast<int>(right_first ? right : left)),
            later_deps.end());
}

TEST(ListScheduler, StaticPowerShrinksTheBudgetAndOpsOverItRunAlone) {
  const ForkJoin fork;
  const std::vector<UnitCapability> units = {
      unit("a", {{"src", 1}, {"left", 1}, {"join", 1}}),
      unit("b", {{"right", 1}})};
  // 50 W static under a 100 W cap leaves 50 W: every 60 W op is over it and runs alone.
  const PowerCap cap = cap_of(100.0, 60.0, 50.0);
  const auto schedule = schedule_heft(fork.graph, units, 0.0, &cap);
  ASSERT_TRUE(schedule);
  EXPECT_EQ(schedule->power->ops_over_cap, 4);
  EXPECT_DOUBLE_EQ(schedule->makespan_s, 4.0);
  EXPECT_DOUBLE_EQ(schedule->power->peak_w, 110.0);  // one op at a time, static included
}

TEST(ListScheduler, UnderTheCapAnOpMovesToTheUnitWhereItNeedNotOverlap) {
  const ForkJoin fork;
  // Both units run everything; a is faster. Every op takes 60 J: 60 W on a, 40 W on b.
  const std::vector<UnitCapability> units = {
      unit("a", {{"src", 1}, {"left", 1}, {"right", 1}, {"join", 1}}),
      unit("b", {{"src", 1.5}, {"left", 1.5}, {"right", 1.5}, {"join", 1.5}})};
  // Uncapped, right runs on b beside left (100 W) and the graph ends at 3.5 s.
  const PowerCap loose = cap_of(1000.0, 60.0);
  const auto uncapped = schedule_heft(fork.graph, units, 0.0, &loose);
  ASSERT_TRUE(uncapped);
  EXPECT_EQ(unit_of(fork.graph, *uncapped, "right", units), "b");
  EXPECT_DOUBLE_EQ(uncapped->makespan_s, 3.5);
  EXPECT_DOUBLE_EQ(uncapped->power->peak_w, 100.0);
  // Under 70 W, right on b would wait for left anyway: it finishes sooner after left on a.
  const PowerCap tight = cap_of(70.0, 60.0);
  const auto capped = schedule_heft(fork.graph, units, 0.0, &tight);
  ASSERT_TRUE(capped);
  EXPECT_EQ(unit_of(fork.graph, *capped, "right", units), "a");
  EXPECT_DOUBLE_EQ(capped->makespan_s, 4.0);
  EXPECT_DOUBLE_EQ(capped->power->peak_w, 60.0);
}

}  // namespace
}  // namespace polyarch::mapping
