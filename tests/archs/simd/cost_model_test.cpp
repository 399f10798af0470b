// Closed-form checks of the simd mappers: streaming at DRAM bandwidth, GEMM at matrix-engine
// peak times tile efficiency, wave quantisation, split-K, causal attention, decode.
#include "archs/simd/cost_model.h"

#include <gtest/gtest.h>

#include "archs/simd/gemm_mapper.h"
#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd::test {
namespace {

constexpr double kHbmBytesPerSecond = 3350e9;

// h100_like with on-chip bandwidths so high that only the matrix engine limits a GEMM.
SimdParams compute_only(SimdParams params) {
  params.l2.bytes_per_cycle = int64_t{1} << 22;
  params.core_bytes_per_cycle = int64_t{1} << 20;
  params.scratchpad.bytes_per_cycle = int64_t{1} << 20;
  return params;
}

MemoryView unlimited_dram() { return {}; }

TEST(SimdCostModel, StreamingKernelRunsAtTheConfiguredDramBandwidth) {
  SocConfig soc = load_shipped("h100_like.yaml");
  soc.dram.efficiency = 1.0;  // the ideal channel: exactly bandwidth_gbps
  const SimdParams params = simd_params_of(soc);
  const int64_t elements = int64_t{1} << 28;
  const sim::OpResult result = run_one(soc, params, elementwise("add", elements, 2));
  const double bytes = 3.0 * 2.0 * static_cast<double>(elements);  // two bf16 inputs, one output
  EXPECT_EQ(result.dram_bytes_read + result.dram_bytes_written, static_cast<int64_t>(bytes));
  EXPECT_NEAR(seconds(result), bytes / kHbmBytesPerSecond, 0.01 * bytes / kHbmBytesPerSecond);
  EXPECT_EQ(result.bound, "dram");
}

TEST(SimdCostModel, TheTimingPresetScalesStreamingByTheDramModelsEfficiency) {
  const SocConfig soc = load_shipped("h100_like.yaml");
  EXPECT_GT(soc.dram.efficiency, 0.85);
  EXPECT_LT(soc.dram.efficiency, 0.95);
  const int64_t elements = int64_t{1} << 28;
  const sim::OpResult result =
      run_one(soc, simd_params_of(soc), elementwise("add", elements, 2));
  const double expected = 6.0 * static_cast<double>(elements) /
                          (kHbmBytesPerSecond * soc.dram.efficiency);
  EXPECT_NEAR(seconds(result), expected, 0.01 * expected);
}

TEST(SimdCostModel, LargeSquareGemmRunsAtMatrixEnginePeakTimesTileEfficiency) {
  const SimdParams params = compute_only(simd_params_of(load_shipped("h100_like.yaml")));
  const KernelPlan plan = plan_op(params, gemm(8192, 8192, 8192), unlimited_dram(), 1.83);
  const double peak_macs_per_cycle =
      static_cast<double>(params.count * params.core_matrix_macs_per_cycle(ir::DType::kBf16));
  const double ideal = static_cast<double>(plan.macs) / peak_macs_per_cycle;
  const double cycles = static_cast<double>(estimate_cycles(plan, 0, 0));
  EXPECT_NEAR(cycles, ideal / plan.mapping_efficiency, 0.03 * cycles) << plan.mapping.dump();
  EXPECT_GT(plan.mapping_efficiency, 0.9);
  EXPECT_EQ(plan.mapping["engine"], "matrix");
}

TEST(SimdCostModel, OneTileMoreThanTheCoresCostsAWholeSecondWave) {
  const SimdParams params = compute_only(simd_params_of(load_shipped("h100_like.yaml")));
  const GemmTiling tiling{128, 128, 64, 1, true};
  auto cycles_for_tiles = [&](int64_t tiles_n) {
    const GemmProblem problem{128, 128 * tiles_n, 8192, 1, ir::DType::kBf16, 0, 0, 0};
    return estimate_cycles(*plan_gemm_tiling(params, problem, tiling), 0, 0);
  };
  const double one_wave = static_cast<double>(cycles_for_tiles(params.count));
  const double two_waves = static_cast<double>(cycles_for_tiles(params.count + 1));
  EXPECT_NEAR(two_waves / one_wave, 2.0, 0.02);
}

TEST(SimdCostModel, FewTilesWithLongKAreSplitAlongK) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  const MemoryView memory{3350.0 / 1.83, 878};
  const KernelPlan chosen = plan_op(params, gemm(128, 128, 65536), memory, 1.83);
  EXPECT_GT(chosen.mapping["split_k"].get<int64_t>(), 1) << chosen.mapping.dump();
  const GemmProblem problem{128, 128, 65536, 1, ir::DType::kBf16, 128 * 65536 * 2,
                            65536 * 128 * 2, 128 * 128 * 2};
  const auto unsplit = plan_gemm_tiling(params, problem, {128, 128, 64, 1, true});
  EXPECT_LT(estimate_cycles(chosen, memory.dram_bytes_per_cycle, memory.dram_latency_cycles),
            estimate_cycles(*unsplit, memory.dram_bytes_per_cycle, memory.dram_latency_cycles) / 4);
}

TEST(SimdCostModel, CausalPrefillTakesAboutHalfTheTimeOfFullAttention) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  const MemoryView memory{3350.0 / 1.83, 878};
  const KernelPlan full = plan_op(params, attention(4, 32, 4096, 4096, 128, false), memory, 1.83);
  const KernelPlan causal = plan_op(params, attention(4, 32, 4096, 4096, 128, true), memory, 1.83);
  EXPECT_EQ(full.kernel, "flash_attention");
  const double ratio = static_cast<double>(estimate_cycles(causal, 3350.0 / 1.83, 878)) /
                       static_cast<double>(estimate_cycles(full, 3350.0 / 1.83, 878));
  EXPECT_NEAR(ratio, 0.5, 0.05);
  EXPECT_NEAR(static_cast<double>(causal.flops) / static_cast<double>(full.flops), 0.5, 0.01);
}

TEST(SimdCostModel, DecodeAttentionStreamsTheKvCacheAtDramBandwidth) {
  SocConfig soc = load_shipped("h100_like.yaml");
  soc.dram.efficiency = 1.0;
  const ir::Op op = attention(32, 32, 1, 4096, 128, false);
  const sim::OpResult result = run_one(soc, simd_params_of(soc), op);
  const double kv_bytes = 2.0 * 32 * 32 * 4096 * 128 * 2;
  EXPECT_EQ(result.bound, "dram");
  EXPECT_NEAR(seconds(result), kv_bytes / kHbmBytesPerSecond, 0.05 * kv_bytes / kHbmBytesPerSecond);
}

// A decode step with a 4096-key window over a 65536-key cache reads only the window's K and V.
TEST(SimdCostModel, DecodeWithAWindowStreamsOnlyTheWindowOfTheKvCache) {
  SocConfig soc = load_shipped("h100_like.yaml");
  soc.dram.efficiency = 1.0;
  ir::Op op = attention(32, 32, 1, 65536, 128, true);
  std::get<ir::AttentionAttrs>(op.attrs).window = 4096;
  const sim::OpResult result = run_one(soc, simd_params_of(soc), op);
  const double window_bytes = 2.0 * 32 * 32 * 4096 * 128 * 2;
  EXPECT_EQ(result.bound, "dram");
  EXPECT_NEAR(seconds(result), window_bytes / kHbmBytesPerSecond,
              0.05 * window_bytes / kHbmBytesPerSecond);
  // With grouped-query heads the heads in flight keep K and V in L2 and read them once: once
  // is still only the window (plus Q), not the whole cache.
  ir::Op grouped = op;
  std::get<ir::AttentionAttrs>(grouped.attrs).kv_heads = 8;
  const sim::OpResult shared = run_one(soc, simd_params_of(soc), grouped);
  const int64_t window_kv = int64_t{2} * 32 * 8 * 4096 * 128 * 2;
  const int64_t queries = int64_t{32} * 32 * 128 * 2;
  EXPECT_EQ(shared.dram_bytes_read, window_kv + queries);
}

// A 32k-token causal prefill with a 4k window computes sum over p of min(p + 1, 4096) scores per
// head, 23.4 % of full causal attention's 32768 x 32769 / 2, and takes about that share of time.
TEST(SimdCostModel, WindowedPrefillTakesTheVisibleShareOfCausalAttention) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  const MemoryView memory{3350.0 / 1.83, 878};
  const ir::Op causal = attention(1, 32, 32768, 32768, 128, true);
  ir::Op windowed = causal;
  std::get<ir::AttentionAttrs>(windowed.attrs).window = 4096;
  const KernelPlan full = plan_op(params, causal, memory, 1.83);
  const KernelPlan window = plan_op(params, windowed, memory, 1.83);
  const double visible = 4096.0 * 4097 / 2 + (32768.0 - 4096) * 4096;
  const double share = visible / (32768.0 * 32769 / 2);
  EXPECT_NEAR(static_cast<double>(ir::mac_count(windowed)) / static_cast<double>(ir::mac_count(causal)),
              share, 1e-12);
  const double time_share = static_cast<double>(estimate_cycles(window, 3350.0 / 1.83, 878)) /
                            static_cast<double>(estimate_cycles(full, 3350.0 / 1.83, 878));
  EXPECT_NEAR(time_share, share, 0.03);
}

TEST(SimdCostModel, AnOperandTypeWithoutMatrixEngineRunsOnTheVectorLanes) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  ir::Op op = gemm(4096, 4096, 4096);
  op.dtype = ir::DType::kFp32;
  const KernelPlan plan = plan_op(params, op, unlimited_dram(), 1.83);
  EXPECT_EQ(plan.mapping["engine"], "vector");
  // FP32 FMAs on 128 lanes per core: 1/16 of the bf16 tensor rate.
  EXPECT_DOUBLE_EQ(plan.peak_flops_per_cycle, 2.0 * 128 * 132);
}

TEST(SimdCostModel, FrontendOpsAreRejectedWithTheirName) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  ir::OnnxNodeAttrs node;
  node.op_type = "Foo";
  const ir::Op op = test_support::make_op("mystery", node);
  EXPECT_FALSE(simd_supports(op));
  try {
    plan_op(params, op, unlimited_dram(), 1.0);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("mystery"), std::string::npos);
  }
}

}  // namespace
}  // namespace polyarch::archs::simd::test
