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
  return {name, "test", [costs](const ir::Op& op) { return costs.count(op.name) > 0; },
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
  std::vector<UnitCapability> units = {
      unit("a", {{"src", 1}, {"left", 1}, {"right", 1}, {"join", 1}})};
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
  const std::vector<UnitCapability> units = {unit("a", {{"src", 1}, {"left", 1}, {"join", 1}}),
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
  EXPECT_NE(
      std::find(later_deps.begin(), later_deps.end(), static_cast<int>(right_first ? right : left)),
      later_deps.end());
}

TEST(ListScheduler, StaticPowerShrinksTheBudgetAndOpsOverItRunAlone) {
  const ForkJoin fork;
  const std::vector<UnitCapability> units = {unit("a", {{"src", 1}, {"left", 1}, {"join", 1}}),
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

// A chain of ops `names[0] -> names[1] -> ...`, each handing the next a tensor of
// `bytes_per_tensor` bytes (fp32 elements).
struct Chain {
  ir::Graph graph{"chain"};
  explicit Chain(const std::vector<std::string>& names, int64_t bytes_per_tensor = 4) {
    ir::NodeId previous = graph.add_tensor(make_tensor("input"));
    for (const std::string& name : names) {
      const ir::NodeId op = graph.add_op(make_op(name, ir::GemmAttrs{.m = 1, .n = 1, .k = 1}));
      ir::Tensor tensor = make_tensor(name + ".out");
      tensor.shape = {bytes_per_tensor / 4};
      tensor.dtype = ir::DType::kFp32;
      const ir::NodeId out = graph.add_tensor(std::move(tensor));
      graph.connect(previous, op);
      graph.connect(op, out);
      previous = out;
    }
  }
};

TEST(ListScheduler, TwoStageChainPipelinesMicroBatchesToTheClosedForm) {
  // Stage one only on unit a (a seconds), stage two only on b (b seconds): n micro-batches end
  // at a + b + (n - 1) max(a, b), against n (a + b) one after another.
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{{3.0, 2.0}, {1.0, 4.0}}) {
    const Chain chain({"s1", "s2"});
    const std::vector<UnitCapability> units = {unit("a", {{"s1", a}}), unit("b", {{"s2", b}})};
    for (int batches : {1, 2, 5, 8}) {
      ScheduleOptions options;
      options.micro_batches = batches;
      const auto schedule = schedule_heft(chain.graph, units, options);
      ASSERT_TRUE(schedule);
      EXPECT_DOUBLE_EQ(schedule->makespan_s, a + b + (batches - 1) * std::max(a, b))
          << "a " << a << " b " << b << " micro-batches " << batches;
      ASSERT_EQ(schedule->program.ops.size(), 2u * static_cast<std::size_t>(batches));
      ASSERT_EQ(schedule->micro_batch_finish_s.size(), static_cast<std::size_t>(batches));
      // Micro-batch k leaves one bottleneck stage after k - 1.
      for (int k = 1; k < batches; ++k) {
        EXPECT_DOUBLE_EQ(schedule->micro_batch_finish_s[static_cast<std::size_t>(k)] -
                             schedule->micro_batch_finish_s[static_cast<std::size_t>(k - 1)],
                         std::max(a, b));
      }
    }
  }
}

TEST(ListScheduler, PipelinedOpsNeverGoToAUnitThatCannotRunThem) {
  const ForkJoin fork;
  const std::vector<UnitCapability> units = {
      unit("a", {{"src", 1}, {"left", 2}, {"join", 1}}),
      unit("b", {{"src", 2}, {"left", 1}, {"right", 3}})};  // only b runs right, only a join
  ScheduleOptions options;
  options.micro_batches = 4;
  const auto schedule = schedule_heft(fork.graph, units, options);
  ASSERT_TRUE(schedule);
  for (std::size_t index = 0; index < schedule->program.ops.size(); ++index) {
    const ProgramOp& op = schedule->program.ops[index];
    const std::string& name = fork.graph.op(op.node).name;
    EXPECT_EQ(op.unit_index, schedule->ops[index].unit_index);
    if (name == "right") EXPECT_EQ(op.unit_index, 1);
    if (name == "join") EXPECT_EQ(op.unit_index, 0);
    // Deps stay inside the micro-batch, and each starts after its producers plus transfers.
    for (std::size_t position = 0; position < op.deps.size(); ++position) {
      const auto dep = static_cast<std::size_t>(op.deps[position]);
      EXPECT_EQ(schedule->program.ops[dep].micro_batch, op.micro_batch);
      EXPECT_GE(schedule->ops[index].start_s,
                schedule->ops[dep].finish_s + op.dep_delay_s[position]);
    }
  }
  // Each unit's list is in start order.
  for (const std::vector<int>& list : schedule->program.per_unit) {
    for (std::size_t k = 1; k < list.size(); ++k) {
      EXPECT_LE(schedule->ops[static_cast<std::size_t>(list[k - 1])].start_s,
                schedule->ops[static_cast<std::size_t>(list[k])].start_s);
    }
  }
}

TEST(ListScheduler, ACopyBetweenUnitsCostsHandOverPlusBytesOverBandwidth) {
  // p only on a, c only on b: c waits for p's 4000 bytes at 1000 B/s after a 0.5 s hand-over.
  const Chain chain({"p", "c"}, 4000);
  const std::vector<UnitCapability> units = {unit("a", {{"p", 1}}), unit("b", {{"c", 1}})};
  ScheduleOptions options;
  options.transfer = {TransferPath::kCopy, 0.5, 1000.0};
  const auto schedule = schedule_heft(chain.graph, units, options);
  ASSERT_TRUE(schedule);
  EXPECT_DOUBLE_EQ(schedule->makespan_s, 1 + 0.5 + 4 + 1);
  EXPECT_EQ(schedule->transfers.count, 1);
  EXPECT_EQ(schedule->transfers.bytes, 4000);
  EXPECT_DOUBLE_EQ(schedule->transfers.seconds, 4.5);
  EXPECT_DOUBLE_EQ(schedule->transfers.copy_seconds, 4.0);
  ASSERT_EQ(schedule->program.ops[1].dep_delay_s.size(), 1u);
  EXPECT_DOUBLE_EQ(schedule->program.ops[1].dep_delay_s[0], 4.5);
}

TEST(ListScheduler, OverSharedDramOnlyTheHandOverIsChargedAndTheSameUnitCostsNothing) {
  const Chain chain({"p", "c"}, 4000);
  ScheduleOptions options;
  options.transfer = {TransferPath::kSharedDram, 0.5, 1000.0};
  // The unit models already read and write the bytes through DRAM: only the hand-over.
  const std::vector<UnitCapability> split = {unit("a", {{"p", 1}}), unit("b", {{"c", 1}})};
  const auto across = schedule_heft(chain.graph, split, options);
  ASSERT_TRUE(across);
  EXPECT_DOUBLE_EQ(across->makespan_s, 2.5);
  EXPECT_EQ(across->transfers.bytes, 4000);
  EXPECT_DOUBLE_EQ(across->transfers.copy_seconds, 0.0);
  // On one unit nothing is handed over, whatever the path.
  options.transfer.path = TransferPath::kCopy;
  const std::vector<UnitCapability> one = {unit("a", {{"p", 1}, {"c", 1}})};
  const auto same = schedule_heft(chain.graph, one, options);
  ASSERT_TRUE(same);
  EXPECT_DOUBLE_EQ(same->makespan_s, 2.0);
  EXPECT_EQ(same->transfers.count, 0);
}

TEST(ListScheduler, ACostlyCopyKeepsAChainOnOneUnit) {
  // b runs c a little faster, but copying p's result there costs more than it saves.
  const Chain chain({"p", "c"}, 4000);
  const std::vector<UnitCapability> units = {unit("a", {{"p", 1}, {"c", 2}}),
                                             unit("b", {{"p", 5}, {"c", 1}})};
  ScheduleOptions options;
  options.transfer = {TransferPath::kCopy, 0.0, 1000.0};  // 4 s to copy
  const auto copying = schedule_heft(chain.graph, units, options);
  ASSERT_TRUE(copying);
  EXPECT_EQ(unit_of(chain.graph, *copying, "c", units), "a");
  EXPECT_DOUBLE_EQ(copying->makespan_s, 3.0);
  options.transfer.path = TransferPath::kSharedDram;  // free hand-over: c moves to b
  const auto shared = schedule_heft(chain.graph, units, options);
  ASSERT_TRUE(shared);
  EXPECT_EQ(unit_of(chain.graph, *shared, "c", units), "b");
  EXPECT_DOUBLE_EQ(shared->makespan_s, 2.0);
}

TEST(ListScheduler, AnOpFillsAnIdleGapOnItsUnit) {
  // src and join on a, left between them on b: a idles in [1, 5). The independent `solo`,
  // placed last (lowest rank), goes into that gap instead of after join (HEFT's insertion).
  Chain chain({"src", "left", "join"});
  const ir::NodeId solo =
      chain.graph.add_op(make_op("solo", ir::GemmAttrs{.m = 1, .n = 1, .k = 1}));
  chain.graph.connect(chain.graph.add_tensor(make_tensor("solo.in")), solo);
  chain.graph.connect(solo, chain.graph.add_tensor(make_tensor("solo.out")));
  const std::vector<UnitCapability> units = {unit("a", {{"src", 1}, {"join", 1}, {"solo", 0.5}}),
                                             unit("b", {{"left", 4}})};
  const auto schedule = schedule_heft(chain.graph, units, 0.0);
  ASSERT_TRUE(schedule);
  EXPECT_DOUBLE_EQ(schedule->ops[index_of(chain.graph, *schedule, "solo")].start_s, 1.0);
  EXPECT_DOUBLE_EQ(schedule->ops[index_of(chain.graph, *schedule, "join")].start_s, 5.0);
  EXPECT_DOUBLE_EQ(schedule->makespan_s, 6.0);
  // a issues solo before join: its list is in start order.
  const std::vector<int>& on_a = schedule->program.per_unit[0];
  ASSERT_EQ(on_a.size(), 3u);
  EXPECT_EQ(chain.graph.op(schedule->program.ops[static_cast<std::size_t>(on_a[1])].node).name,
            "solo");
}

TEST(ListScheduler, SingleUnitBaselineAddsEveryEstimateOrHasNone) {
  const ForkJoin fork;
  const std::optional<double> alone = single_unit_makespan(
      fork.graph, unit("a", {{"src", 1}, {"left", 2}, {"right", 3}, {"join", 4}}));
  ASSERT_TRUE(alone);
  EXPECT_DOUBLE_EQ(*alone, 10.0);
  EXPECT_FALSE(single_unit_makespan(fork.graph, unit("b", {{"src", 1}})));
}

}  // namespace
}  // namespace polyarch::mapping
