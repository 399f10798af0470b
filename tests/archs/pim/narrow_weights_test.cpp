// A PIM unit streaming weights stored narrower than its PUs compute: the banks give up the
// bytes as stored and the lanes convert every weight, which on HBM-PIM (one 16-wide FP16 MAC
// per 32-byte column access) makes a bank-bound GEMV lane-bound. Counts derived by hand.
#include <gtest/gtest.h>

#include "archs/pim/cost_model.h"
#include "archs/pim/kind.h"
#include "archs/soc/soc_config.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::pim {
namespace {

PimParams shipped_pim(const std::string& file) {
  const SocConfig soc =
      load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file);
  for (const auto& unit : soc.units) {
    if (const auto* pim = dynamic_cast<const PimUnitConfig*>(unit.get())) return pim->params();
  }
  return {};
}

ir::Op gemv(ir::DType dtype) {
  ir::Op op = test_support::make_op("g", ir::GemmAttrs{.m = 1, .n = 4096, .k = 4096});
  op.dtype = dtype;
  return op;
}

// hbm_pim_like: 128 PUs (16 pseudo-channels x 8), 32-byte bursts, 16 lanes at 400 MHz against
// the 1600 MHz command clock (4 command cycles a PU cycle), tCCD_L 4.
TEST(PimNarrowWeights, Int4WeightsStreamTheirStoredBytesAndTheLanesPaceTheStream) {
  const PimParams params = shipped_pim("hbm_pim_like.yaml");
  ASSERT_EQ(params.pu_count(), 128);
  ASSERT_EQ(params.dram.bytes_per_burst(), 32);
  ASSERT_EQ(params.dram.timing.tCCD_L, 4);
  ir::Op int4 = gemv(ir::DType::kFp16);
  int4.weight_format = ir::WeightFormat{ir::DType::kInt4, 128};
  const PimPlan plan = plan_op(params, int4, Partition::kRows);
  const PimPlan fp16 = plan_op(params, gemv(ir::DType::kFp16), Partition::kRows);
  // 32 rows a PU: 32 x 4096 / 2 bytes of codes and 32 x 32 fp16 scales = 67584 bytes, 2112
  // bursts; all PUs: K N / 2 + N (K / 128) 2 = 8 650 752 bytes.
  ASSERT_EQ(plan.segments.size(), 1u);
  EXPECT_EQ(plan.segments[0].bursts_per_pu, 2112);
  EXPECT_EQ(plan.internal_bytes, 4096 * 4096 / 2 + 4096 * 32 * 2);
  EXPECT_EQ(fp16.internal_bytes, 4096 * 4096 * 2);
  // A burst holds 64 codes: 64 MACs and 64 conversions on 16 lanes are 8 PU cycles, 32 command
  // cycles, against fp16's 16 MACs, 1 PU cycle = 4 = tCCD_L: the banks no longer pace it.
  EXPECT_EQ(plan.segments[0].compute_cycles_per_burst, 32);
  EXPECT_EQ(fp16.segments[0].compute_cycles_per_burst, 4);
  EXPECT_EQ(plan.bound, "compute");
  // Every weight converted once: 4096 x 4096 on 128 x 16 lanes, 8192 PU cycles, 32768 command
  // cycles; fp16 converts nothing.
  EXPECT_EQ(plan.converted_elements, 4096 * 4096);
  EXPECT_EQ(plan.conversion_cycles, 32768);
  EXPECT_EQ(fp16.converted_elements, 0);
  // The fp16 vector still goes to every pseudo-channel, the fp16 results come back.
  EXPECT_EQ(plan.external_write_bytes, 4096 * 2 * 16);
  EXPECT_EQ(plan.external_read_bytes, 4096 * 2);
}

// An fp8 GEMV on fp16 PUs: weights in the banks, the broadcast vector and the results all in
// fp8. Per PU (32 rows): 4096 bursts of 32 weights, 32 MACs and 32 conversions each, and the
// pass's 4096 inputs and 32 results to convert spread over its bursts: ceil(4128 / 4096) = 2
// more, 66 operations on 16 lanes = 5 PU cycles = 20 command cycles a burst.
TEST(PimNarrowWeights, AnFp8GemvIsConvertedOnTheLanesFromItsStoredBytes) {
  const PimParams params = shipped_pim("hbm_pim_like.yaml");
  const PimPlan plan = plan_op(params, gemv(ir::DType::kFp8E4M3), Partition::kRows);
  EXPECT_EQ(plan.internal_bytes, 4096 * 4096);
  EXPECT_EQ(plan.segments[0].bursts_per_pu, 4096);
  EXPECT_EQ(plan.segments[0].compute_cycles_per_burst, 20);
  EXPECT_EQ(plan.converted_elements, 4096 * 4096 + 4096 * 128 + 4096);
  EXPECT_EQ(plan.external_write_bytes, 4096 * 16);
  EXPECT_EQ(plan.external_read_bytes, 4096);
}

TEST(PimNarrowWeights, IntegerCoresRefuseFloatFormatsAndNarrowNonGemvOpsAreRefused) {
  const PimParams upmem = shipped_pim("upmem_like.yaml");
  ir::Op fp8_weights = gemv(ir::DType::kInt8);
  fp8_weights.weight_format = ir::WeightFormat{ir::DType::kFp8E4M3, 0};
  const std::optional<std::string> refusal = pim_type_refusal(upmem, fp8_weights);
  ASSERT_TRUE(refusal);
  EXPECT_NE(refusal->find("computes int8"), std::string::npos);
  ir::Op int4_weights = gemv(ir::DType::kInt8);
  int4_weights.weight_format = ir::WeightFormat{ir::DType::kInt4, 128};
  EXPECT_EQ(pim_type_refusal(upmem, int4_weights), std::nullopt);

  const PimParams hbm = shipped_pim("hbm_pim_like.yaml");
  ir::Op add = test_support::make_op(
      "add", ir::ElementwiseAttrs{.fn = "add", .elements = 1024, .inputs = 2});
  add.dtype = ir::DType::kFp8E4M3;
  EXPECT_TRUE(pim_type_refusal(hbm, add));
}

}  // namespace
}  // namespace polyarch::archs::pim
