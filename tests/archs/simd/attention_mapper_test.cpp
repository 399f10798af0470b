// The fused attention plan on h100_like for each stated library kernel, held to cycle counts
// derived by hand from the arch file: 4 tensor cores x 512 bf16 MACs per cycle through warpgroup
// MMAs (2048 per SM), 4 x 339 = 1356 through mma.sync, 128 fp32 lanes, 16 SFUs, 128 B/cycle of
// shared memory, a 64 B/cycle L2 port, 5120 B/cycle of L2, 260 cycles of L2 latency and 480 ns
// of DRAM latency (878 cycles at 1.83 GHz).
#include "archs/simd/attention_mapper.h"

#include <gtest/gtest.h>

#include "sim/memory/memory_view.h"
#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd {
namespace {

SimdParams h100() { return test::simd_params_of(test::load_shipped("h100_like.yaml")); }
constexpr int64_t kDramLatency = 878;  // llround(480e-9 * 1.83e9)

// One sequence, one head, 64 queries against 64 keys of head dim 64: one work item of one
// 64 x 64 KV block on one SM.
ir::AttentionAttrs one_block(ir::AttentionKernel kernel) {
  ir::AttentionAttrs attention{.b = 1, .h = 1, .kv_heads = 1, .s = 64, .kv_len = 64, .d = 64};
  attention.kernel = kernel;
  return attention;
}

// The item's one step, by hand. The block's two products (QK^T and PV, 2 x 64 x 64 x 64 =
// 524288 MACs), its softmax on the lanes (4 x 64 x 64 + 64 x 64 = 20480 fp32 ops: 160 cycles)
// and its 4096 exps on the SFUs (256 cycles). The staging of K and V (16384 bytes: 128 cycles
// of shared memory, 256 of the L2 port) and the L2 latency of the next block (260) bound the
// step too. Before it: the Q block's DRAM latency and fetch, 878 + 8192 / 64 = 1006 cycles.
//   flash3 overlaps them (ping-pong): 524288 / 2048 = 256 MMA cycles, 160, 256, 256 and 260:
//     the longest is the L2 latency, 260 + 1006 = 1266.
// FlashAttention-2 launches its own tile for head dim 64, 128 x 128 (flash2_launch.h): 128
// queries against 128 keys are one item of one block. Products 2 x 128 x 128 x 64 = 2097152
// MACs: ceil(2097152 / 1356) = 1547 cycles at the mma.sync rate; softmax 4 x 128 x 128 +
// 128 x 64 = 73728 lane ops: 576 cycles; 16384 exps: 1024 cycles; one after another: 3147 (K
// and V, 32768 bytes, take 512 cycles of the L2 port). The item's Q fetch, 878 + 16384 / 64 =
// 1134, and its epilogue, O (128 x 64) scaled on the lanes (64 cycles) and passed through shared
// memory and back (2 x 16384 bytes: 256 cycles), go with its one block: 3147 + 1134 + 320 = 4601.
TEST(SimdAttentionMapper, Flash2RunsTheProductsAtTheSynchronousMmaRateThenTheSoftmax) {
  ir::AttentionAttrs attention{.b = 1, .h = 1, .kv_heads = 1, .s = 128, .kv_len = 128, .d = 64};
  attention.kernel = ir::AttentionKernel::kFlash2;
  const auto flash2 =
      plan_flash_tiling(h100(), attention, ir::DType::kBf16, {128, 128, 1}, kDramLatency);
  ASSERT_TRUE(flash2.has_value());
  EXPECT_EQ(flash2->compute_cycles, 1547 + 576 + 1024 + 1134 + 64 + 256);
  EXPECT_EQ(flash2->mapping["attention_kernel"], "flash2");
  // Two items fit an SM: 2 x 48 KiB of Q, K and V in 228 KiB, 2 x 96 KiB of accumulators
  // ((128 x 128 + 128 x 64) x 4 B) in 256 KiB.
  EXPECT_EQ(flash2->mapping["resident_items_per_core"], 2);
  // Its ceiling is the synchronous rate: 2 x 1356 FLOPs per SM per cycle on 132 SMs.
  EXPECT_DOUBLE_EQ(flash2->peak_flops_per_cycle, 2.0 * 1356 * 132);
  // Any other tiling is not FlashAttention-2's.
  EXPECT_FALSE(
      plan_flash_tiling(h100(), attention, ir::DType::kBf16, {64, 64, 1}, kDramLatency)
          .has_value());
}

TEST(SimdAttentionMapper, Flash3IsTheDefaultKeepsTheWarpgroupRateAndOverlapsTheSoftmax) {
  const auto flash3 = plan_flash_tiling(h100(), one_block(ir::AttentionKernel::kFlash3),
                                        ir::DType::kBf16, {64, 64, 1}, kDramLatency);
  ASSERT_TRUE(flash3.has_value());
  EXPECT_EQ(flash3->compute_cycles, 260 + 1006);
  EXPECT_FALSE(flash3->mapping.contains("attention_kernel"));
  EXPECT_EQ(ir::AttentionAttrs{}.kernel, ir::AttentionKernel::kFlash3);
  EXPECT_DOUBLE_EQ(flash3->peak_flops_per_cycle, 2.0 * 2048 * 132);
}

// 32 causal heads of 512 queries at head dim 64 (32 x 8 blocks of 64 queries fill the 264 CTA
// slots: no KV split): each head's query blocks of 128 see 1, 2, 3 and 4 blocks of 128 keys.
// The 128 items go out one per SM and end after 1, 2, 3 and 4 steps: four spans of one step
// (128, 96, 64, 32 SMs busy), not the 10 / 4 blocks an even spread would give each.
TEST(SimdAttentionMapper, Flash2CausalItemsEndOneByOne) {
  ir::AttentionAttrs attention{.b = 1, .h = 32, .kv_heads = 32, .s = 512, .kv_len = 512,
                               .d = 64};
  attention.kernel = ir::AttentionKernel::kFlash2;
  attention.causal = true;
  const auto plan =
      plan_flash_tiling(h100(), attention, ir::DType::kBf16, {128, 128, 1}, kDramLatency);
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->blocks.size(), 4U);
  EXPECT_EQ(plan->step_count(), 4);
  EXPECT_EQ(plan->mapping["kv_blocks"], 32 * (1 + 2 + 3 + 4));
}

// A decode step of grouped-query attention: FlashAttention-2 runs the 4 query heads of each KV
// head as its rows, so the split heuristic sees 16 x 8 = 128 items, not 16 x 32 = 512 (which
// fill the 264 CTA slots: no split). 4096 keys are 32 blocks of 128; s splits fill 128 s / 264
// of a wave, at best 0.970 (every even s), and 2 is the fewest eligible within 0.85 of it.
TEST(SimdAttentionMapper, Flash2DecodeOfGroupedHeadsSplitsAsTheLibrarySwapsThem) {
  ir::AttentionAttrs decode{.b = 16, .h = 32, .kv_heads = 8, .s = 1, .kv_len = 4096, .d = 128};
  decode.kernel = ir::AttentionKernel::kFlash2;
  const std::optional<FlashTiling> tiling = library_tiling(h100(), decode);
  ASSERT_TRUE(tiling.has_value());
  EXPECT_EQ(tiling->kv_split, 2);
  EXPECT_EQ(tiling->block_q, 64);  // the split-KV kernel's
  EXPECT_EQ(tiling->block_kv, 128);
  decode.kv_heads = 32;  // no grouping: 512 items fill the SMs
  EXPECT_EQ(library_tiling(h100(), decode)->kv_split, 1);
}

// A stated FlashAttention-2 runs fused: the plan weighs no unfused kernels. The default plan
// still does.
TEST(SimdAttentionMapper, AStatedFlash2KernelIsNotWeighedAgainstTheUnfusedForm) {
  const SocConfig soc = test::load_shipped("h100_like.yaml");
  const MemoryView memory =
      sim::memory_view(soc.dram.bandwidth_gbps * 1e9, soc.dram.latency_ns * 1e-9, 1.83);
  ir::AttentionAttrs prefill{.b = 1, .h = 16, .kv_heads = 16, .s = 2048, .kv_len = 2048,
                             .d = 128};
  prefill.kernel = ir::AttentionKernel::kFlash2;
  const KernelPlan flash2 = plan_attention(h100(), prefill, ir::DType::kBf16, memory, 1830);
  EXPECT_EQ(flash2.kernel, "flash_attention");
  EXPECT_TRUE(flash2.mapping["unfused_estimate_cycles"].is_null());
  prefill.kernel = ir::AttentionKernel::kFlash3;
  const KernelPlan flash3 = plan_attention(h100(), prefill, ir::DType::kBf16, memory, 1830);
  EXPECT_TRUE(flash3.mapping["unfused_estimate_cycles"].is_number());
  // At two thirds of the MMA rate no tiling is faster than the Hopper-native plan.
  EXPECT_GT(flash2.compute_cycles, flash3.compute_cycles);
}

// The unfused form's softmax is the library's (library_math.h): per score 3 SFU results (two
// exponentials and the division's reciprocal) and 30 + 2 (scale, mask) + 4 conversions = 36
// fp32 lane ops, for bf16 scores and for fp8 ones (8-bit floats compute in fp32 too). The GEMMs
// add no SFU work, and in the stored type at most their 2 x 64 x 64 x 64 MACs (when they run on
// the lanes): nothing of the softmax stays there.
TEST(SimdAttentionMapper, TheUnfusedSoftmaxIsTheLibrarysKernelInFp32) {
  const SocConfig soc = test::load_shipped("h100_like.yaml");
  const MemoryView memory =
      sim::memory_view(soc.dram.bandwidth_gbps * 1e9, soc.dram.latency_ns * 1e-9, 1.83);
  const int64_t scores = 64 * 64;
  for (ir::DType dtype : {ir::DType::kBf16, ir::DType::kFp8E4M3}) {
    const KernelPlan plan =
        plan_unfused_attention(h100(), one_block(ir::AttentionKernel::kFlash3), dtype, memory, 0);
    EXPECT_EQ(plan.sfu_ops, 3 * scores);
    EXPECT_GE(plan.vector_ops.at(ir::DType::kFp32), 36 * scores);
    const auto stored = plan.vector_ops.find(dtype);
    EXPECT_LE(stored == plan.vector_ops.end() ? 0 : stored->second, 2 * 64 * 64 * 64);
  }
}

}  // namespace
}  // namespace polyarch::archs::simd
