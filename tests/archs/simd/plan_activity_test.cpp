// Thread instructions a simd plan issues, counted by hand from the PTX ISA's shapes: lanes pack
// two 16-bit elements per instruction, an SFU result is one instruction, an mma.sync m16n8k16
// gives each of a warp's 32 threads 4 outputs x 16 K = 64 bf16 MACs and a wgmma m64n256k16 each
// of a warpgroup's 128 threads 128 outputs x 16 K = 2048, and a thread loads or stores 16 bytes
// of L2 traffic at a time.
#include "archs/simd/plan_activity.h"

#include <gtest/gtest.h>

#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd::test {
namespace {

class PlanInstructions : public ::testing::Test {
 protected:
  SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));  // 132 SMs, 4 x 512 bf16

  // A plan whose compute ceiling is one core's `macs_per_cycle` on every core.
  KernelPlan plan_at(int64_t macs_per_cycle) const {
    KernelPlan plan;
    plan.peak_flops_per_cycle = 2.0 * static_cast<double>(macs_per_cycle) * 132.0;
    return plan;
  }
};

TEST_F(PlanInstructions, LaneSfuAndMemoryInstructions) {
  KernelPlan plan = plan_at(2048);
  plan.vector_ops = {{ir::DType::kBf16, 1000}, {ir::DType::kFp32, 300}};
  plan.sfu_ops = 50;
  plan.l2_bytes = 1600;
  // 1000 / 2 packed bf16 + 300 fp32 + 50 SFU + 1600 / 16 loads and stores.
  EXPECT_EQ(plan_thread_instructions(plan, params), 500 + 300 + 50 + 100);
  params.vector.packed_narrow_types = false;
  EXPECT_EQ(plan_thread_instructions(plan, params), 1000 + 300 + 50 + 100);
}

TEST_F(PlanInstructions, AFullRatePlanOnHopperIssuesWgmma) {
  KernelPlan plan = plan_at(4 * 512);
  plan.matrix_macs = {{ir::DType::kBf16, 2048 * 10}};
  EXPECT_EQ(plan_thread_instructions(plan, params), 10);
}

TEST_F(PlanInstructions, APlanAtTheSynchronousRateIssuesMmaSync) {
  KernelPlan plan = plan_at(4 * 339);  // h100_like's sync_macs_per_cycle
  plan.matrix_macs = {{ir::DType::kBf16, 2048 * 10}};
  EXPECT_EQ(plan_thread_instructions(plan, params), 2048 * 10 / 64);
}

TEST_F(PlanInstructions, AnEngineWithoutAFasterPathIssuesMmaSyncAtItsFullRate) {
  params.matrix_engine.sync_macs_per_cycle.clear();  // Ampere: mma.sync is the full-rate path
  KernelPlan plan = plan_at(4 * 512);
  plan.matrix_macs = {{ir::DType::kBf16, 6400}, {ir::DType::kInt8, 6400}};
  // int8 mma.sync m16n8k32: 4 outputs x 32 K = 128 MACs per thread; 6400 / 64 = 100 for bf16.
  EXPECT_EQ(plan_thread_instructions(plan, params), 100 + 50);
}

TEST_F(PlanInstructions, RecordedWithTheComputeCounts) {
  KernelPlan plan = plan_at(2048);
  plan.vector_ops = {{ir::DType::kFp32, 7}};
  plan.sfu_ops = 3;
  sim::OpResult result;
  record_plan_activity(plan, params, result);
  EXPECT_EQ(result.mapping["activity"]["thread_instructions"].get<int64_t>(), 10);
  EXPECT_EQ(simd_activity(plan, params).thread_instructions, 10);
}

}  // namespace
}  // namespace polyarch::archs::simd::test
