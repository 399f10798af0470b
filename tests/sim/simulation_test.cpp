#include "sim/kernel/simulation.h"

#include <gtest/gtest.h>

#include "tests/support/ir_builders.h"

#include <memory>
#include <string>
#include <utility>

#include "sim/memory/dram_channel.h"

namespace polyarch::sim {
namespace {

using polyarch::test_support::make_op;
using polyarch::test_support::make_tensor;

// A unit whose timing is easy to predict: a GEMM takes m cycles of compute, then moves k bytes
// through DRAM. An op named "boom" fails inside the SystemC thread.
class FakeUnit : public UnitModel {
 public:
  FakeUnit(std::string name, double clock_ghz, SharedResources& resources)
      : name_(std::move(name)), clock_ghz_(clock_ghz), dram_(resources.dram) {
    initiator_ = dram_->register_initiator(name_);
  }
  const std::string& name() const override { return name_; }
  std::string kind() const override { return "fake"; }
  double clock_ghz() const override { return clock_ghz_; }
  bool supports(const ir::Op& op) const override { return op.kind() == ir::OpKind::kGemm; }
  OpResult execute(const ir::Op& op) override {
    if (op.name == "boom") throw_runtime({}, "fake unit failed on boom");
    const auto& gemm = std::get<ir::GemmAttrs>(op.attrs);
    sc_core::wait(sc_core::sc_time(static_cast<double>(gemm.m) / clock_ghz_, sc_core::SC_NS));
    dram_->transfer(initiator_, gemm.k, false);
    OpResult result;
    result.compute_cycles = gemm.m;
    result.macs = gemm.m * gemm.n * gemm.k;
    result.dram_bytes_read = gemm.k;
    return result;
  }

 private:
  std::string name_;
  double clock_ghz_;
  DramChannel* dram_;
  int initiator_ = 0;
};

UnitSpec fake_unit(const std::string& name, double clock_ghz = 1.0) {
  return {name, "fake", [name, clock_ghz](SharedResources& resources) {
            return std::make_unique<FakeUnit>(name, clock_ghz, resources);
          }};
}

SystemSpec system_with(std::vector<UnitSpec> units, double bandwidth_gbps = 1.0) {
  SystemSpec system;
  system.name = "test";
  system.clock_ghz = 1.0;
  system.dram.bandwidth_gbps = bandwidth_gbps;
  system.dram.latency_ns = 0.0;
  system.units = std::move(units);
  return system;
}

// A chain of GEMMs, each reading the previous one's output.
struct Chain {
  ir::Graph graph{"chain"};
  std::vector<ir::NodeId> ops;
};

Chain make_chain(const std::vector<std::pair<std::string, ir::GemmAttrs>>& layers) {
  Chain chain;
  ir::NodeId previous = chain.graph.add_tensor(make_tensor("input"));
  for (const auto& [name, attrs] : layers) {
    ir::NodeId op = chain.graph.add_op(make_op(name, attrs));
    ir::NodeId output = chain.graph.add_tensor(make_tensor(name + ".out", ir::TensorRole::kOutput));
    chain.graph.connect(previous, op);
    chain.graph.connect(op, output);
    chain.ops.push_back(op);
    previous = output;
  }
  return chain;
}

TEST(Simulation, SequentialOpsOnOneUnitAddUp) {
  Chain chain = make_chain({{"a", {.m = 100, .n = 1, .k = 50}}, {"b", {.m = 30, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 0, {}}, {chain.ops[1], 0, {0}}};
  program.per_unit = {{0, 1}};
  const RunResult result = simulate(system_with({fake_unit("u")}), program, chain.graph);
  ASSERT_EQ(result.ops.size(), 2u);
  EXPECT_EQ(result.ops[0].name, "a");
  EXPECT_EQ(result.ops[0].kind, "gemm");
  EXPECT_EQ(result.ops[0].unit, "u");
  EXPECT_EQ(result.ops[0].start_cycle, 0);
  EXPECT_EQ(result.ops[0].total_cycles, 150);  // 100 compute + 50 B at 1 GB/s
  EXPECT_EQ(result.ops[0].stall_cycles, 50);
  EXPECT_EQ(result.ops[1].start_cycle, 150);
  EXPECT_EQ(result.ops[1].end_cycle, 180);
  EXPECT_EQ(result.ops[1].stall_cycles, 0);
  EXPECT_EQ(result.summary.total_cycles, 180);
  EXPECT_DOUBLE_EQ(result.summary.latency_s, 180e-9);
  EXPECT_EQ(result.summary.dram_bytes_read, 50);
  ASSERT_EQ(result.units.size(), 1u);
  EXPECT_EQ(result.units[0].busy_cycles, 180);
  EXPECT_DOUBLE_EQ(result.units[0].utilization, 1.0);
}

TEST(Simulation, TwoContextsInARowInOneProcess) {
  Chain chain = make_chain({{"a", {.m = 64, .n = 1, .k = 16}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 0, {}}};
  program.per_unit = {{0}};
  // Whatever context existed before (SystemC may create one during static initialisation, so
  // it depends on what ran first in this process) is the one in place afterwards.
  sc_core::sc_simcontext* const context_before = sc_core::sc_curr_simcontext;
  sc_core::sc_simcontext* const global_before = sc_core::sc_default_global_context;
  const RunResult first = simulate(system_with({fake_unit("u")}), program, chain.graph);
  const RunResult second = simulate(system_with({fake_unit("u")}), program, chain.graph);
  EXPECT_EQ(first.summary.total_cycles, 80);
  EXPECT_EQ(second.summary.total_cycles, first.summary.total_cycles);
  EXPECT_EQ(sc_core::sc_curr_simcontext, context_before);
  EXPECT_EQ(sc_core::sc_default_global_context, global_before);
}

TEST(Simulation, OpWaitsForItsDepOnAnotherUnit) {
  Chain chain = make_chain(
      {{"producer", {.m = 200, .n = 1, .k = 0}}, {"consumer", {.m = 10, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 0, {}}, {chain.ops[1], 1, {0}}};
  program.per_unit = {{0}, {1}};
  const RunResult result =
      simulate(system_with({fake_unit("u0"), fake_unit("u1")}), program, chain.graph);
  ASSERT_EQ(result.ops.size(), 2u);
  EXPECT_EQ(result.ops[1].name, "consumer");
  EXPECT_EQ(result.ops[1].unit, "u1");
  EXPECT_EQ(result.ops[1].start_cycle, 200);
  EXPECT_EQ(result.units[1].busy_cycles, 10);
  EXPECT_EQ(result.units[1].total_cycles, 210);
}

TEST(Simulation, AConsumerWaitsForItsDepsTransferDelay) {
  Chain chain = make_chain(
      {{"producer", {.m = 200, .n = 1, .k = 0}}, {"consumer", {.m = 10, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 0, {}}, {chain.ops[1], 1, {0}}};
  program.ops[1].dep_delay_s = {50e-9};  // the planned hand-over and copy: 50 cycles at 1 GHz
  program.per_unit = {{0}, {1}};
  const RunResult result =
      simulate(system_with({fake_unit("u0"), fake_unit("u1")}), program, chain.graph);
  ASSERT_EQ(result.ops.size(), 2u);
  EXPECT_EQ(result.ops[1].start_cycle, 250);
  EXPECT_EQ(result.summary.total_cycles, 260);
}

TEST(Simulation, MicroBatchesOfAPipelinedProgramAreNamedApart) {
  Chain chain = make_chain({{"a", {.m = 100, .n = 1, .k = 0}}, {"b", {.m = 100, .n = 1, .k = 0}}});
  mapping::Program one;
  one.ops = {{chain.ops[0], 0, {}}, {chain.ops[1], 1, {0}}};
  mapping::Program program = mapping::replicate_micro_batches(one, 2);
  program.per_unit = {{0, 2}, {1, 3}};
  const RunResult result =
      simulate(system_with({fake_unit("u0"), fake_unit("u1")}), program, chain.graph);
  ASSERT_EQ(result.ops.size(), 4u);
  // a#1 overlaps b#0: the two-stage pipeline ends at 3 x 100 cycles, not 4 x 100.
  EXPECT_EQ(result.summary.total_cycles, 300);
  EXPECT_EQ(result.ops[1].name, "b#0");  // start ties keep program order
  EXPECT_EQ(result.ops[2].name, "a#1");
  EXPECT_EQ(result.ops[2].micro_batch, 1);
  EXPECT_EQ(result.ops[2].start_cycle, 100);
}

TEST(Simulation, IndependentOpsOnTwoUnitsRunInParallel) {
  Chain left =
      make_chain({{"left", {.m = 100, .n = 1, .k = 0}}, {"right", {.m = 100, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{left.ops[0], 0, {}}, {left.ops[1], 1, {}}};
  program.per_unit = {{0}, {1}};
  const RunResult result =
      simulate(system_with({fake_unit("u0"), fake_unit("u1")}), program, left.graph);
  EXPECT_EQ(result.summary.total_cycles, 100);
}

TEST(Simulation, UnitCyclesUseTheUnitClockAndStartOnItsEdges) {
  Chain chain = make_chain({{"a", {.m = 3, .n = 1, .k = 0}}, {"b", {.m = 10, .n = 1, .k = 0}}});
  mapping::Program program;
  // a runs on a 1 GHz unit for 3 ns; b on a 0.4 GHz unit (2.5 ns cycles) waits for it and
  // starts on that unit's next edge, 5 ns.
  program.ops = {{chain.ops[0], 0, {}}, {chain.ops[1], 1, {0}}};
  program.per_unit = {{0}, {1}};
  const RunResult result =
      simulate(system_with({fake_unit("fast"), fake_unit("slow", 0.4)}), program, chain.graph);
  EXPECT_EQ(result.ops[1].start_cycle, 2);
  EXPECT_EQ(result.ops[1].total_cycles, 10);
  EXPECT_DOUBLE_EQ(result.ops[1].unit_clock_ghz, 0.4);
  EXPECT_EQ(result.summary.total_cycles, 30);  // 30 ns in the 1 GHz SoC clock
}

TEST(Simulation, ErrorsInsideThreadsPropagateAndTheNextRunWorks) {
  Chain chain = make_chain({{"ok", {.m = 5, .n = 1, .k = 0}}, {"boom", {.m = 5, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 0, {}}, {chain.ops[1], 0, {0}}};
  program.per_unit = {{0, 1}};
  sc_core::sc_simcontext* const context_before = sc_core::sc_curr_simcontext;
  try {
    simulate(system_with({fake_unit("u")}), program, chain.graph);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(error.message().find("boom"), std::string::npos);
  }
  EXPECT_EQ(sc_core::sc_curr_simcontext, context_before);
  program.ops.pop_back();
  program.per_unit = {{0}};
  const RunResult result = simulate(system_with({fake_unit("u")}), program, chain.graph);
  EXPECT_EQ(result.summary.total_cycles, 5);
}

TEST(Simulation, ErrorsDuringElaborationPropagate) {
  Chain chain = make_chain({{"a", {.m = 5, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 0, {}}};
  program.per_unit = {{0}};
  UnitSpec broken{"broken", "fake", [](SharedResources&) -> std::unique_ptr<UnitModel> {
                    throw_bad_input({}, "cannot build");
                  }};
  EXPECT_THROW(simulate(system_with({broken}), program, chain.graph), Error);
  EXPECT_EQ(simulate(system_with({fake_unit("u")}), program, chain.graph).summary.total_cycles, 5);
}

TEST(Simulation, UnsupportedOpIsABadInputError) {
  ir::Graph graph("conv");
  ir::NodeId conv = graph.add_op(
      make_op("conv", ir::Conv2dAttrs{.c = 1, .h = 4, .w = 4, .k = 1, .r = 1, .s = 1}));
  mapping::Program program;
  program.ops = {{conv, 0, {}}};
  program.per_unit = {{0}};
  try {
    simulate(system_with({fake_unit("u")}), program, graph);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
  }
}

TEST(Simulation, MalformedProgramsAreRejectedBeforeRunning) {
  Chain chain = make_chain({{"a", {.m = 5, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 1, {}}};
  program.per_unit = {{}, {0}};
  EXPECT_THROW(simulate(system_with({fake_unit("u")}), program, chain.graph), Error);
  program.ops = {{chain.ops[0], 0, {0}}};
  program.per_unit = {{0}};
  EXPECT_THROW(simulate(system_with({fake_unit("u")}), program, chain.graph), Error);
}

TEST(Simulation, DepCycleAcrossUnitsIsReportedNotHung) {
  Chain chain = make_chain({{"a", {.m = 5, .n = 1, .k = 0}}, {"b", {.m = 5, .n = 1, .k = 0}}});
  mapping::Program program;
  program.ops = {{chain.ops[0], 0, {1}}, {chain.ops[1], 1, {0}}};
  program.per_unit = {{0}, {1}};
  EXPECT_THROW(simulate(system_with({fake_unit("u0"), fake_unit("u1")}), program, chain.graph),
               Error);
}

}  // namespace
}  // namespace polyarch::sim
