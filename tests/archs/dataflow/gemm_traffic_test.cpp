// What a GEMM moves between DRAM and the fabric, derived by hand from plasticine_like's numbers
// (64 PMUs of 256 KB = 16 MB of scratchpad, 16 lanes, fp32, DRAM 51.2 B per 1 GHz cycle):
// operands that fit are read once; a GEMM whose A and C do not fit runs its rows in blocks that
// stay on chip, which reads A once and B once per block and spills no partial sum.
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

}  // namespace
}  // namespace polyarch::archs::dataflow::test
