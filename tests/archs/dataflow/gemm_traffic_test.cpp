// What a GEMM moves between DRAM and the fabric, derived by hand from plasticine_like's numbers
// (64 PMUs of 256 KB = 16 MB of scratchpad, 16 lanes, fp32, DRAM 51.2 B per 1 GHz cycle):
// operands that fit are read once; a GEMM whose A and C do not fit runs its rows in blocks that
// stay on chip, which reads A once and B once per block and spills no partial sum. Either
// operand can be the stationary one (C = A B or C^T = B^T A^T), with the roles traded.
#include <gtest/gtest.h>

#include "archs/dataflow/cost_model.h"
#include "tests/archs/dataflow/dataflow_fixture.h"

namespace polyarch::archs::dataflow::test {
namespace {

constexpr sim::MemoryView kPlasticineDram{51.2, 100};
constexpr int64_t kFp32 = 4;

int64_t dram_bytes(const DataflowPlan& plan) {
  return plan.dram_read_bytes + plan.dram_write_bytes;
}

TEST(DataflowGemmTraffic, OperandsThatFitAreReadOnceAndTheResultWrittenOnce) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  // A 1.5 MB, B 2.25 MB, C 1.5 MB: each under a quarter of the 16 MB of scratchpads.
  const DataflowPlan plan = plan_op(params, gemm(512, 768, 768), cache, std::nullopt,
                                    kPlasticineDram);
  EXPECT_EQ(plan.dram_read_bytes, (512 * 768 + 768 * 768) * kFp32);
  EXPECT_EQ(plan.dram_write_bytes, 512 * 768 * kFp32);
  EXPECT_EQ(plan.mapping["row_blocks"], 1);
}

TEST(DataflowGemmTraffic, LargeGemmRunsInRowBlocksThatReadBOncePerBlock) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const ir::Op op = gemm(4096, 4096, 4096);
  // A row's A and C take (4096 + 4096) x 4 B = 32 KB; half the scratchpads (8 MB) hold 256 rows
  // (a multiple of the 16 lanes): 16 blocks. A and C move once, B (64 MB) once per block.
  const int64_t matrix = int64_t{4096} * 4096 * kFp32;
  const DataflowPlan own = plan_op(params, op, cache, std::nullopt, kPlasticineDram);
  EXPECT_EQ(own.mapping["row_blocks"], 16);
  EXPECT_EQ(own.mapping["rows_per_block"], 256);
  EXPECT_EQ(own.dram_read_bytes, matrix + 16 * matrix);
  EXPECT_EQ(own.dram_write_bytes, matrix);

  // Whole rows (the fabric's choice when DRAM is unlimited) re-read A per round of output columns
  // and spill partial sums: far more traffic, and with 51.2 B/cycle of DRAM far slower.
  const DataflowPlan unblocked = plan_op(params, op, cache);  // unlimited DRAM: whole rows
  EXPECT_EQ(unblocked.mapping["row_blocks"], 1);
  EXPECT_GT(dram_bytes(unblocked), 10 * dram_bytes(own));
  EXPECT_LT(estimate_cycles(own, kPlasticineDram.dram_bytes_per_cycle, 100),
            estimate_cycles(unblocked, kPlasticineDram.dram_bytes_per_cycle, 100));
  // Blocking pays the weight loads and the fill once per block: without a DRAM limit it is
  // never the faster one.
  EXPECT_GE(estimate_cycles(own, 0, 0), estimate_cycles(unblocked, 0, 0));
}

TEST(DataflowGemmTraffic, RowsTooLongForTheScratchpadsAreNotBlocked) {
  // hycube_like's scratchpads cannot hold one lane vector of 4096-long rows of A and C.
  const DataflowParams params = shipped_params("hycube_like.yaml");
  MappingCache cache;
  const DataflowPlan plan =
      plan_op(params, gemm(1024, 4096, 4096), cache, std::nullopt, {1.0, 100});
  EXPECT_EQ(plan.mapping["row_blocks"], 1);
}

// A 4 x 4 scalar-issue CGRA with 4 lanes and 1 KiB scratchpads (4 KiB on chip: a quarter is
// 1 KiB, half 2 KiB), small enough that every count below is worked by hand.
DataflowParams four_lane_cgra() {
  DataflowParams params = small_cgra();
  params.pe.lanes = 4;
  params.memory.scratchpad_kib = 1;
  return params;
}

GemmChoice tile_2x2(bool swapped, bool blocked = false) {
  return {.k_unroll = 2, .n_unroll = 2, .row_blocks = blocked, .swapped = swapped};
}

// C = A B with 2 rows: a 2k x 2n tile of B's weights streams one vector of A's 2 rows (half its
// 4 lanes) per round: ceil(8/2) x ceil(64/2) = 128 tiles, one iteration each (one copy: the
// tile's 6 memory streams exceed the 4 single-port memory PEs). Swapped, C^T = B^T A^T holds
// 2 x 2 values of A and streams B's 64 columns: ceil(8/2) x ceil(2/2) = 4 tiles of 64/4 = 16
// iterations. Each MAC fires once per iteration on 4 lanes: 128 x 1 x 4 x 4 = 2048 MACs (half on
// idle lanes) against 4 x 16 x 4 x 4 = 1024 = 2 x 64 x 8, the GEMM's own. Both read A (64 B) and
// B (2 KiB) once and write C (512 B, under the quarter: no partial-sum spill).
TEST(DataflowGemmTraffic, SwappedOrientationStreamsBsColumnsThroughTheLanes) {
  const DataflowParams params = four_lane_cgra();
  MappingCache cache;
  const ir::Op op = gemm(2, 64, 8);
  const DataflowPlan rows = plan_op(params, op, cache, tile_2x2(false));
  const DataflowPlan columns = plan_op(params, op, cache, tile_2x2(true));
  EXPECT_EQ(rows.mapping["orientation"], "C = A B");
  EXPECT_EQ(rows.mapping["weight_tiles"], 128);
  EXPECT_EQ(rows.mapping["iterations_per_round"], 1);
  EXPECT_EQ(rows.phases.front().activity.macs, 2048);
  EXPECT_EQ(columns.mapping["orientation"], "C^T = B^T A^T");
  EXPECT_EQ(columns.mapping["weight_tiles"], 4);
  EXPECT_EQ(columns.mapping["tile_rounds"], 4);
  EXPECT_EQ(columns.mapping["iterations_per_round"], 16);
  EXPECT_EQ(columns.phases.front().activity.macs, 2 * 64 * 8);
  for (const DataflowPlan* plan : {&rows, &columns}) {
    EXPECT_EQ(plan->dram_read_bytes, (2 * 8 + 8 * 64) * kFp32);
    EXPECT_EQ(plan->dram_write_bytes, 2 * 64 * kFp32);
  }
  // One weight load and one fill per 16 iterations instead of per iteration: faster, and the
  // fabric's own choice is at least as fast as either.
  EXPECT_LT(estimate_cycles(columns, 0, 0), estimate_cycles(rows, 0, 0));
  EXPECT_LE(estimate_cycles(plan_op(params, op, cache), 0, 0), estimate_cycles(columns, 0, 0));
}

// 8 x 64 x 16 with 2 x 2 tiles: A is 512 B, B 4 KiB, C 2 KiB. C = A B streams A (under the
// quarter: once) and holds B (once); C^T = B^T A^T streams B, which does not stay, so it is read
// once per round of output columns: ceil(ceil(8/2) / 1 copy) = 4 times, and A (stationary) once.
// C is over the quarter: its partial sums spill over the ceil(16/2) - 1 = 7 later K tiles either
// way (14 KiB read and written). Blocked, C^T's rows are B's columns: each takes (16 + 8) x 4 =
// 96 B (a column of B, a row of C^T); half the scratchpads (2 KiB) hold 21, 20 in lane vectors:
// 4 blocks (20, 20, 20, 4), B read once, A once per block, C written once.
TEST(DataflowGemmTraffic, SwappedOrientationTradesTheOperandsRoles) {
  const DataflowParams params = four_lane_cgra();
  MappingCache cache;
  const ir::Op op = gemm(8, 64, 16);
  const int64_t a = 8 * 16 * kFp32;
  const int64_t b = 16 * 64 * kFp32;
  const int64_t c = 8 * 64 * kFp32;
  const DataflowPlan rows = plan_op(params, op, cache, tile_2x2(false));
  EXPECT_EQ(rows.dram_read_bytes, a + b + 7 * c);
  EXPECT_EQ(rows.dram_write_bytes, c + 7 * c);
  const DataflowPlan columns = plan_op(params, op, cache, tile_2x2(true));
  EXPECT_EQ(columns.mapping["a_passes"], 4);
  EXPECT_EQ(columns.dram_read_bytes, 4 * b + a + 7 * c);
  EXPECT_EQ(columns.dram_write_bytes, c + 7 * c);
  const DataflowPlan blocked = plan_op(params, op, cache, tile_2x2(true, true));
  EXPECT_EQ(blocked.mapping["row_blocks"], 4);
  EXPECT_EQ(blocked.mapping["rows_per_block"], 20);
  EXPECT_EQ(blocked.dram_read_bytes, b + 4 * a);
  EXPECT_EQ(blocked.dram_write_bytes, c);
}

// Plasticine's GEMM benchmark, 47 x 3840 x 7680: C = A B streams 47 rows, 3 lane vectors per
// weight tile (the 8k x 16n tile: 76,800 rounds of 3 iterations, each paying the weight load and
// the pipeline's depth). Swapped, B's 3840 columns stream: 240 iterations per round, and the op
// runs at the DRAM's bandwidth: A (1,443,840 B), B (117,964,800 B) and C (721,920 B) once over
// 51.2 B per cycle is 2,346,300 cycles, which caps it at 9.8 % of the fabric's peak.
TEST(DataflowGemmTraffic, PlasticinesGemmBenchmarkSwapsAndRunsAtTheDramBandwidth) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const ir::Op op = gemm(47, 3840, 7680);
  const DataflowPlan own = plan_op(params, op, cache, std::nullopt, kPlasticineDram);
  EXPECT_EQ(own.mapping["orientation"], "C^T = B^T A^T");
  EXPECT_EQ(own.mapping["iterations_per_round"], 3840 / 16);
  EXPECT_EQ(dram_bytes(own), (47 * 7680 + 7680 * 3840 + 47 * 3840) * kFp32);
  const int64_t floor = 2346300;
  const int64_t cycles = estimate_cycles(own, kPlasticineDram.dram_bytes_per_cycle, 100);
  EXPECT_GE(cycles, floor);
  EXPECT_LE(cycles, floor + floor / 100);
  const DataflowPlan rows = plan_op(params, op, cache, GemmChoice{.k_unroll = 8, .n_unroll = 16},
                                    kPlasticineDram);
  EXPECT_EQ(rows.mapping["iterations_per_round"], 3);
  EXPECT_GT(estimate_cycles(rows, kPlasticineDram.dram_bytes_per_cycle, 100), floor * 6 / 5);
}

// A convolution swaps as its im2col GEMM: the 49 output pixels' patches become the stationary
// operand, gathered from the ifmap the memory PEs hold, so DRAM still reads the ifmap's distinct
// bytes (64 x 7 x 7 x 4), not the 9x larger im2col matrix, and the weights (3 x 3 x 64 x 64 x 4)
// once; C (49 x 64 x 4) once.
TEST(DataflowGemmTraffic, ConvolutionSwapsAsItsIm2colGemm) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const ir::Op op = conv(64, 7, 64, 3, 1);
  const DataflowPlan swapped =
      plan_op(params, op, cache, GemmChoice{.k_unroll = 8, .n_unroll = 8, .swapped = true},
              kPlasticineDram);
  EXPECT_EQ(swapped.mapping["orientation"], "C^T = B^T A^T");
  EXPECT_EQ(swapped.mapping["iterations_per_round"], 64 / 16);
  EXPECT_EQ(swapped.dram_read_bytes, (64 * 7 * 7 + 3 * 3 * 64 * 64) * kFp32);
  EXPECT_EQ(swapped.dram_write_bytes, 7 * 7 * 64 * kFp32);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
