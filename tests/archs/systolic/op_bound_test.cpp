// What limits a systolic op, and its roofline coordinates, as the simulated run reports them:
// hand-derived cases where the array, the channel or the buffers decide.
#include "archs/systolic/op_bound.h"

#include <gtest/gtest.h>

#include <string>

#include "archs/systolic/module.h"
#include "tests/support/ir_builders.h"
#include "tests/support/simulate_ops.h"

namespace polyarch::archs::systolic {
namespace {

using polyarch::test_support::make_op;

SystolicParams array16(int64_t buffer_kib) {
  SystolicParams params;
  params.name = "sa";
  params.rows = 16;
  params.cols = 16;
  params.dataflow = Dataflow::kOutputStationary;
  params.buffers = {.ifmap_kib = buffer_kib,
                    .filter_kib = buffer_kib,
                    .ofmap_kib = buffer_kib,
                    .double_buffered = true};
  return params;
}

// One op on one 16x16 int8 array at 1 GHz behind a channel of `bandwidth_gbps`.
sim::OpResult run_gemm(int64_t buffer_kib, int64_t m, int64_t n, int64_t k,
                       double bandwidth_gbps) {
  sim::SystemSpec system;
  system.name = "soc";
  system.clock_ghz = 1.0;
  system.dram.bandwidth_gbps = bandwidth_gbps;
  system.dram.latency_ns = 10;
  system.units.push_back({"sa", "systolic", systolic_unit_factory(array16(buffer_kib), 1.0, {})});
  const ir::Op op = make_op("g", ir::GemmAttrs{.m = m, .n = n, .k = k});
  return test_support::simulate_ops(system, {op}).ops.at(0);
}

TEST(SystolicBound, TheRuleComparesComputeWithTheChannelThenTrafficWithTheCompulsoryBytes) {
  EXPECT_EQ(systolic_bound(100, 100, 1e6, 1.0), mapping::Bound::kCompute);  // a tie is compute
  EXPECT_EQ(systolic_bound(100, 101, 150, 100), mapping::Bound::kDram);     // 1.5x still dram
  EXPECT_EQ(systolic_bound(100, 101, 151, 100), mapping::Bound::kBuffer);
}

TEST(SystolicBound, CompulsoryBytesCountEveryOperandOnce) {
  // A 4x16 by 16x8 int8 GEMM: 64 + 128 + 32 bytes; twice as much for fp16, times the repeats.
  const ir::GemmView view{.m = 4, .n = 8, .k = 16, .repeats = 1, .ifmap_distinct_elements = 64};
  EXPECT_EQ(compulsory_dram_bytes(view, ir::DType::kInt8), 224.0);
  EXPECT_EQ(compulsory_dram_bytes(view, ir::DType::kFp16), 448.0);
  const ir::GemmView batched{.m = 4, .n = 8, .k = 16, .repeats = 3, .ifmap_distinct_elements = 64};
  EXPECT_EQ(compulsory_dram_bytes(batched, ir::DType::kInt8), 672.0);
}

TEST(SystolicBound, ASmallGemmIsDramBoundBehindASlowChannelAndComputeBoundBehindAFastOne) {
  // 64^3 int8 with 64 KiB buffers: every operand fits and moves once, 3 x 4096 bytes. At 1 GB/s
  // that is 12288 cycles of channel; the 16x16 array needs 16 folds of about 64 + 30 cycles.
  const sim::OpResult slow = run_gemm(64, 64, 64, 64, 1.0);
  EXPECT_EQ(slow.dram_bytes_read + slow.dram_bytes_written, 3 * 4096);
  EXPECT_LT(slow.compute_cycles, 12288);
  EXPECT_EQ(slow.bound, "dram");
  // At 10 TB/s the same traffic takes about a cycle and a quarter.
  EXPECT_EQ(run_gemm(64, 64, 64, 64, 10000.0).bound, "compute");
}

TEST(SystolicBound, BuffersTooSmallForReuseMakeItBufferBound) {
  // 1 KiB per buffer cannot hold a 256x256 operand: it is fetched again per fold, well over 1.5x
  // the 3 x 65536 compulsory bytes, and a 1 GB/s channel cannot keep up.
  const sim::OpResult result = run_gemm(1, 256, 256, 256, 1.0);
  EXPECT_GT(result.dram_bytes_read + result.dram_bytes_written, 1.5 * 3 * 65536);
  EXPECT_EQ(result.bound, "buffer");
}

TEST(SystolicRoofline, CoordinatesComeFromTheRunAndTheArrayPeak) {
  const sim::OpResult result = run_gemm(64, 64, 64, 64, 1.0);
  const nlohmann::ordered_json& roofline = result.roofline;
  EXPECT_EQ(roofline["flops"], 2 * 64 * 64 * 64);
  EXPECT_EQ(roofline["dram_bytes"], 3 * 4096);
  EXPECT_DOUBLE_EQ(roofline["ops_per_byte"].get<double>(), 2.0 * 64 * 64 * 64 / (3 * 4096));
  // 256 PEs, two FLOPs per MAC, 1 GHz.
  EXPECT_DOUBLE_EQ(roofline["peak_flops_per_s"].get<double>(), 512e9);
  EXPECT_NEAR(roofline["dram_bytes_per_s"].get<double>(), 1e9, 1.0);
  // Attained: the FLOPs over the simulated latency (one cycle a nanosecond).
  EXPECT_NEAR(roofline["attained_flops_per_s"].get<double>(),
              2.0 * 64 * 64 * 64 / (static_cast<double>(result.total_cycles) * 1e-9), 1.0);
  // The mapping the run used, in the array's own terms.
  EXPECT_EQ(result.mapping["dataflow"], "os");
  EXPECT_EQ(result.mapping["row_folds"], 4);
  EXPECT_EQ(result.mapping["col_folds"], 4);
}

}  // namespace
}  // namespace polyarch::archs::systolic
