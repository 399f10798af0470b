// Op plans: unrolling fills the fabric, fused elementwise chains beat their ops one by one,
// ops the PEs cannot compute are refused with a reason, attention runs as three loops.
#include "archs/dataflow/cost_model.h"

#include <gtest/gtest.h>

#include "archs/dataflow/phase_plans.h"
#include "compiler/ir/block_sparse_layout.h"
#include "tests/archs/dataflow/dataflow_fixture.h"
#include "tests/base/error_capture.h"

namespace polyarch::archs::dataflow::test {
namespace {

// DRAM at the preset's bandwidth, in bytes per cycle of its 1 GHz clock.
constexpr double kPlasticineBytesPerCycle = 51.2;

TEST(DataflowCostModel, GemmUnrollFillsTheFabric) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const DataflowPlan plan = plan_op(params, gemm(512, 768, 768), cache);
  ASSERT_EQ(plan.phases.size(), 1u);
  const LoopPhase& phase = plan.phases.front();
  EXPECT_GE(plan.pes_used, params.pe.count() / 2) << phase.mapping.dump();
  // At most one MAC per lane, stage and PE per cycle: never faster than the peak.
  const int64_t peak = params.pe.count() * params.pe.lanes * params.pe.stages;
  EXPECT_GE(phase.compute_cycles * peak, plan.macs);
  // ...and within 8x of it for a large GEMM (operand routing and partial sums through the
  // scratchpads cost the rest).
  EXPECT_LE(phase.compute_cycles * peak, 8 * plan.macs) << phase.mapping.dump();
}

TEST(DataflowCostModel, ConvAndGemmReportTheirPlacement) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const DataflowPlan plan = plan_op(params, conv(64, 56, 64, 3, 1), cache);
  const auto picture = plan.mapping["placement"];
  ASSERT_TRUE(picture.is_array());
  EXPECT_EQ(picture.size(), static_cast<std::size_t>(params.pe.rows + 2));
  EXPECT_NE(picture.dump().find('M'), std::string::npos) << picture.dump(1);
  EXPECT_GT(plan.mapping["ii"].get<int64_t>(), 0);
  EXPECT_GT(plan.dram_read_bytes, 0);
}

TEST(DataflowCostModel, FusedElementwiseChainBeatsItsOpsOneByOne) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const int64_t elements = int64_t{1} << 20;
  const std::vector<ChainStep> chain = {{"mul", 2}, {"add", 2}, {"gelu", 1}};
  DataflowPlan fused;
  fused.phases.push_back(plan_chain_phase(params, cache, chain, elements, ir::DType::kFp32));
  DataflowPlan separate;
  for (const ChainStep& step : chain) {
    separate.phases.push_back(plan_chain_phase(params, cache, {step}, elements, ir::DType::kFp32));
  }
  for (DataflowPlan* plan : {&fused, &separate}) {
    for (const LoopPhase& phase : plan->phases) {
      for (const PlanStep& step : phase.steps) {
        plan->dram_read_bytes += step.dram_read_bytes * step.count;
        plan->dram_write_bytes += step.dram_write_bytes * step.count;
      }
    }
  }
  // Intermediates stay on the fabric: one write instead of three, three operand reads not five.
  EXPECT_EQ(fused.dram_write_bytes * 3, separate.dram_write_bytes);
  EXPECT_LT(fused.dram_read_bytes, separate.dram_read_bytes);
  EXPECT_LT(estimate_cycles(fused, kPlasticineBytesPerCycle, 100),
            estimate_cycles(separate, kPlasticineBytesPerCycle, 100));
  EXPECT_LT(estimate_cycles(fused, 0, 0), estimate_cycles(separate, 0, 0));
}

TEST(DataflowCostModel, OpsThePesCannotComputeAreRefusedWithTheMissingOps) {
  const DataflowParams hycube = shipped_params("hycube_like.yaml");
  EXPECT_EQ(unsupported_reason(hycube, gemm(64, 64, 64)), "");
  EXPECT_EQ(unsupported_reason(hycube, conv(16, 14, 16, 3, 1)), "");
  EXPECT_EQ(unsupported_reason(hycube, elementwise("relu", 1024, 1)), "");
  const ir::Op softmax = test_support::make_op("sm", ir::SoftmaxAttrs{128, 128});
  EXPECT_NE(unsupported_reason(hycube, softmax).find("exp"), std::string::npos);
  EXPECT_NE(unsupported_reason(hycube, elementwise("gelu", 1024, 1)).find("exp"),
            std::string::npos);
  MappingCache cache;
  const std::string error = testing::error_text([&] { plan_op(hycube, softmax, cache); });
  EXPECT_NE(error.find("cannot run op 'sm'"), std::string::npos) << error;
  const DataflowParams plasticine = shipped_params("plasticine_like.yaml");
  EXPECT_EQ(unsupported_reason(plasticine, softmax), "");
  const ir::Op layernorm =
      test_support::make_op("ln", ir::NormAttrs{ir::NormKind::kLayerNorm, 128, 768});
  EXPECT_EQ(unsupported_reason(plasticine, layernorm), "");
}

TEST(DataflowCostModel, AttentionRunsAsScoresSoftmaxAndWeightedSum) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const ir::Op attention = test_support::make_op(
      "attn",
      ir::AttentionAttrs{
          .b = 1, .h = 12, .kv_heads = 12, .s = 128, .kv_len = 128, .d = 64, .causal = false});
  const DataflowPlan plan = plan_op(params, attention, cache);
  ASSERT_EQ(plan.phases.size(), 3u);
  EXPECT_EQ(plan.mapping["phases"].size(), 3u);
  EXPECT_EQ(plan.macs, ir::mac_count(attention));
}

// A decode step with a 256-key window over a 4096-key cache loops over the window only: the
// DRAM bytes of a 256-key cache without one. A block-sparse layout's keys are not one range
// for the loops: refused with the reason.
TEST(DataflowCostModel, ADecodeWindowLoopsOverTheWindowAndBlockLayoutsAreRefused) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  const ir::AttentionAttrs windowed{.b = 1,
                                    .h = 8,
                                    .kv_heads = 8,
                                    .s = 1,
                                    .kv_len = 4096,
                                    .d = 64,
                                    .causal = true,
                                    .window = 256};
  const ir::AttentionAttrs short_cache{
      .b = 1, .h = 8, .kv_heads = 8, .s = 1, .kv_len = 256, .d = 64, .causal = true};
  const DataflowPlan window_plan = plan_op(params, test_support::make_op("w", windowed), cache);
  const DataflowPlan short_plan = plan_op(params, test_support::make_op("s", short_cache), cache);
  EXPECT_EQ(window_plan.dram_read_bytes, short_plan.dram_read_bytes);
  EXPECT_EQ(window_plan.compute_cycles, short_plan.compute_cycles);
  ir::AttentionAttrs sparse = short_cache;
  sparse.block_sparse = std::make_shared<const ir::BlockSparseLayout>(
      ir::bigbird_layout({.local = 3, .global = 1}, 64, 1, 256, true));
  EXPECT_NE(unsupported_reason(params, test_support::make_op("b", sparse)).find("block-sparse"),
            std::string::npos);
}

TEST(DataflowCostModel, IdenticalTileShapesArePlacedOnce) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  MappingCache cache;
  plan_op(params, gemm(512, 768, 768), cache);
  const std::size_t after_first = cache.size();
  ir::Op same_shape = gemm(512, 768, 768);
  same_shape.name = "another layer";
  plan_op(params, same_shape, cache);
  EXPECT_EQ(cache.size(), after_first);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
