// The closed form (fill + II x (iterations - 1) + drain = depth + II x (iterations - 1)) against
// the cycle-level self-timed reference of the placed, scheduled loop.
#include "archs/dataflow/reference_sim.h"

#include <gtest/gtest.h>

#include "archs/dataflow/dfg_builders.h"
#include "archs/dataflow/mapper.h"
#include "tests/archs/dataflow/dataflow_fixture.h"

namespace polyarch::archs::dataflow::test {
namespace {

int64_t closed_form(const ModuloSchedule& schedule, int64_t iterations) {
  return schedule.depth_cycles + schedule.ii * (iterations - 1);
}

struct Case {
  std::string preset;
  Dfg single;
  int64_t replicas;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const std::string preset : {"plasticine_like.yaml", "hycube_like.yaml"}) {
    const DataflowParams params = shipped_params(preset);
    const ir::DType dtype = params.dtype;
    for (const GemmTile& tile : {GemmTile{1, 1, false, dtype}, GemmTile{4, 2, true, dtype},
                                 GemmTile{16, 4, true, dtype}}) {
      const Dfg single = gemm_tile_dfg(params, tile);
      all.push_back({preset, single, 1});
      all.push_back({preset, single, replicas_to_fill(params, single)});
    }
    const Dfg chain = elementwise_chain_dfg(params, {{"mul", 2}, {"add", 2}, {"relu", 1}});
    all.push_back({preset, chain, replicas_to_fill(params, chain)});
    const ir::Op reduce = test_support::make_op("r", ir::ReduceAttrs{64, 256, "sum"});
    for (int64_t interleave : {1, 2}) {
      all.push_back({preset, row_kernel_dfg(params, reduce, interleave), 2});
    }
  }
  return all;
}

TEST(DataflowReference, StaticRunMatchesTheClosedFormWithEveryOperandOnTime) {
  for (const Case& test : cases()) {
    const DataflowParams params = shipped_params(test.preset);
    const MappedLoop loop = map_loop(params, test.single, test.replicas, 4);
    const std::string what = test.preset + " " + test.single.label + " x" +
                             std::to_string(test.replicas) + " ii " +
                             std::to_string(loop.schedule.ii);
    for (int64_t iterations : {1, 2, 7, 40}) {
      const ReferenceRun run = simulate_loop(params, loop.dfg, loop.placement, loop.schedule,
                                             iterations, ReferenceMode::kStatic);
      EXPECT_EQ(run.cycles, closed_form(loop.schedule, iterations)) << what << " x" << iterations;
      EXPECT_EQ(run.late_operands, 0) << what;
      EXPECT_EQ(run.fires, static_cast<int64_t>(loop.dfg.nodes.size()) * iterations);
      EXPECT_LE(run.busiest_cycle_issues, std::max(params.pe.stages, params.memory.ports)) << what;
    }
  }
}

// Firing as soon as operands and issue slots allow can only shorten the ends of the loop: the
// steady state still starts one iteration per II.
TEST(DataflowReference, SelfTimedRunIsBoundedByTheClosedForm) {
  for (const Case& test : cases()) {
    const DataflowParams params = shipped_params(test.preset);
    const MappedLoop loop = map_loop(params, test.single, test.replicas, 4);
    for (int64_t iterations : {1, 7, 40}) {
      const ReferenceRun run = simulate_loop(params, loop.dfg, loop.placement, loop.schedule,
                                             iterations, ReferenceMode::kSelfTimed);
      EXPECT_LE(run.cycles, closed_form(loop.schedule, iterations)) << test.single.label;
      EXPECT_GT(run.cycles, loop.schedule.ii * (iterations - 1)) << test.single.label;
    }
  }
}

// With more accumulators interleaved than the adder's latency, the recurrence no longer bounds
// the interval and the reference runs one iteration per cycle.
TEST(DataflowReference, InterleavedAccumulatorsRunAtTheResourceBound) {
  DataflowParams params = small_cgra();
  params.pe.latency_cycles["add"] = 4;
  const ir::Op reduce = test_support::make_op("r", ir::ReduceAttrs{64, 256, "sum"});
  const MappedLoop serial = map_loop(params, row_kernel_dfg(params, reduce, 1), 1, 4);
  const MappedLoop interleaved = map_loop(params, row_kernel_dfg(params, reduce, 4), 1, 4);
  EXPECT_EQ(serial.schedule.ii, 4);
  EXPECT_EQ(interleaved.schedule.ii, 1);
  const int64_t iterations = 100;
  const ReferenceRun slow =
      simulate_loop(params, serial.dfg, serial.placement, serial.schedule, iterations);
  const ReferenceRun fast = simulate_loop(params, interleaved.dfg, interleaved.placement,
                                          interleaved.schedule, iterations);
  EXPECT_EQ(slow.late_operands + fast.late_operands, 0);
  EXPECT_EQ(slow.cycles, closed_form(serial.schedule, iterations));
  EXPECT_EQ(fast.cycles, closed_form(interleaved.schedule, iterations));
  EXPECT_GT(slow.cycles, 3 * fast.cycles);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
