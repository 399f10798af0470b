// Dot products with the lanes along K, for GEMMs whose rows or columns cannot fill a lane vector:
// counts worked by hand on a small fabric, the partial sums reduced on chip, and Plasticine's
// inner product and a GEMV streaming at the DRAM's bandwidth where weight tiles cannot.
#include <gtest/gtest.h>

#include "archs/dataflow/cost_model.h"
#include "archs/dataflow/phase_plans.h"
#include "tests/archs/dataflow/dataflow_fixture.h"

namespace polyarch::archs::dataflow::test {
namespace {

constexpr sim::MemoryView kPlasticineDram{51.2, 100};
constexpr int64_t kFp32 = 4;
const GemmChoice kDot{.k_unroll = 1, .n_unroll = 1, .dot = true};

DataflowParams four_lane_cgra() {
  DataflowParams params = small_cgra();
  params.pe.lanes = 4;
  return params;
}

// 1 x 1 x 1024 on the 4-lane CGRA: the graph is two loads and a MAC (latency 1: one partial sum
// per lane). Two copies fill the 4 single-port memory PEs; the one output's 256 lane vectors of K
// split between them, 128 iterations each. Each copy leaves 4 partials: 8 to reduce. MACs:
// 2 x 128 x 4 lanes = 1024, the dot product's own. Scratchpad: 4 loads x 128 x 4 lanes x 4 B =
// 8 KiB, plus the 8 partials written once (32 B). DRAM: both vectors once, the result once.
TEST(DataflowDotPlan, ADotProductSplitsKAmongTheCopiesAndReducesThePartials) {
  const DataflowParams params = four_lane_cgra();
  MappingCache cache;
  const DataflowPlan plan = plan_op(params, gemm(1, 1, 1024), cache, kDot);
  ASSERT_EQ(plan.phases.size(), 2u);
  const LoopPhase& loop = plan.phases[0];
  EXPECT_EQ(loop.mapping["form"], "dot products over K");
  EXPECT_EQ(loop.mapping["replicas"], 2);
  EXPECT_EQ(loop.mapping["k_vectors"], 256);
  EXPECT_EQ(loop.mapping["k_splits"], 2);
  EXPECT_EQ(loop.iterations, 128);
  EXPECT_EQ(loop.mapping["partials_per_output"], 8);
  EXPECT_EQ(loop.activity.macs, 1024);
  EXPECT_EQ(loop.activity.scratchpad_bytes, 4 * 128 * 4 * kFp32 + 8 * kFp32);
  EXPECT_EQ(plan.phases[1].label, "gemm.reduce");
  EXPECT_EQ(plan.dram_read_bytes, 2 * 1024 * kFp32);
  EXPECT_EQ(plan.dram_write_bytes, kFp32);
  // The reduction reads the partials on chip: the loop over K does all the DRAM reading.
  int64_t reduction_reads = 0;
  for (const PlanStep& step : plan.phases[1].steps) reduction_reads += step.dram_read_bytes;
  EXPECT_EQ(reduction_reads, 0);
}

// 3 x 2 x 64, n_unroll 2, C = A B: the graph loads a chunk of a row of A once for both columns
// (3 loads, 2 MACs); with two ports per memory PE two copies fit (8 streams / 3). One output tile
// per row of A (3), each 16 lane vectors long: the copies take 2 and 1 tiles (ceil(3/2) = 2
// tiles of 16 iterations each), K unsplit.
TEST(DataflowDotPlan, OutputTilesShareTheCopiesWithoutSplittingK) {
  DataflowParams params = four_lane_cgra();
  params.memory.ports = 2;
  MappingCache cache;
  const DataflowPlan plan =
      plan_op(params, gemm(3, 2, 64), cache, GemmChoice{.k_unroll = 1, .n_unroll = 2, .dot = true});
  const LoopPhase& loop = plan.phases[0];
  EXPECT_EQ(loop.mapping["output_tiles"], 3);
  EXPECT_EQ(loop.mapping["k_splits"], 1);
  EXPECT_EQ(loop.mapping["dfg_nodes"], 5);
  EXPECT_EQ(loop.mapping["replicas"], 2);
  EXPECT_EQ(loop.iterations, 2 * 16);
  EXPECT_EQ(plan.dram_read_bytes, (3 * 64 + 64 * 2) * kFp32);
  EXPECT_EQ(plan.dram_write_bytes, 3 * 2 * kFp32);
}

// Plasticine's inner product at 2^24 elements: 2 x 64 MiB to stream at 51.2 B per cycle is
// 2,621,440 cycles; the dot products' fabric needs a fraction of that, so the op runs at the
// DRAM's bandwidth (within the one DRAM latency, the reconfigurations and the reduction). The
// weight tiles it replaces hold 8 elements of one vector and stream one element of the other:
// each round of tiles pays the weight load and the pipeline's depth for a single iteration, so
// they cannot keep up with the DRAM.
TEST(DataflowDotPlan, PlasticinesInnerProductStreamsAtTheDramBandwidth) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const int64_t k = int64_t{1} << 24;
  const DataflowPlan own = plan_op(params, gemm(1, 1, k), cache, std::nullopt, kPlasticineDram);
  EXPECT_EQ(own.mapping["form"], "dot products over K");
  EXPECT_EQ(own.dram_read_bytes, 2 * k * kFp32);
  const int64_t transfer = 2 * k * kFp32 * 10 / 512;  // bytes / 51.2
  const int64_t cycles = estimate_cycles(own, kPlasticineDram.dram_bytes_per_cycle, 100);
  EXPECT_GE(cycles, transfer);
  EXPECT_LE(cycles, transfer + transfer / 100);
  const DataflowPlan tile = plan_op(params, gemm(1, 1, k), cache,
                                    GemmChoice{.k_unroll = 8, .n_unroll = 1}, kPlasticineDram);
  EXPECT_GT(estimate_cycles(tile, kPlasticineDram.dram_bytes_per_cycle, 100), 3 * cycles / 2);
}

// A GEMV keeps whichever of its weight tilings (both orientations) and dot products estimates
// faster with the DRAM in front: with 2 rows the tiles run one iteration per weight load and the
// dot products win, streaming the matrix and the vector once at the DRAM's bandwidth
// ((2 + 1) x 2^20 x 4 B / 51.2 B per cycle = 245,760 cycles); with 47 rows the tiles run 3
// iterations per round and are DRAM-bound already, so the dot products' second configuration
// (the reduction's) does not pay. The own choice is no slower than any other choice forced.
TEST(DataflowDotPlan, AGemvKeepsTheFasterOfItsTilesAndItsDotProducts) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  auto estimate = [](const DataflowPlan& plan) {
    return estimate_cycles(plan, kPlasticineDram.dram_bytes_per_cycle, 100);
  };
  const ir::Op two_rows = gemm(2, 1, int64_t{1} << 20);
  const DataflowPlan dot = plan_op(params, two_rows, cache, std::nullopt, kPlasticineDram);
  EXPECT_EQ(dot.mapping["form"], "dot products over K");
  EXPECT_EQ(dot.dram_read_bytes, 3 * (int64_t{1} << 20) * kFp32);
  EXPECT_LE(estimate(dot), 245760 + 245760 / 100);
  for (const ir::Op& op : {two_rows, gemm(47, 1, 7680)}) {
    const DataflowPlan own = plan_op(params, op, cache, std::nullopt, kPlasticineDram);
    for (const GemmChoice& choice : gemm_choices(params, gemm_shape(op, ir::DType::kFp32))) {
      const DataflowPlan forced = plan_op(params, op, cache, choice, kPlasticineDram);
      EXPECT_LE(estimate(own), estimate(forced))
          << op.name << " k_unroll " << choice.k_unroll << " n_unroll " << choice.n_unroll
          << " swapped " << choice.swapped << " dot " << choice.dot;
    }
  }
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
