// The simd attention mapping space searched on h100_like, held to facts derived by hand from the
// arch file (132 SMs x 4 tensor cores x 512 fp16 MACs per cycle at 1.83 GHz, the 989 TFLOP/s
// H100 SXM dense peak; 3350 GB/s of HBM): a searched
// mapping is never faster than the compute peak or than moving Q, K, V and O once; a long
// prefill stays fused (the unfused form writes and reads every score through DRAM); a decode
// step splits its keys across SMs (32 query heads alone would leave 100 of 132 SMs idle).
#include "archs/simd/attention_space.h"

#include <gtest/gtest.h>

#include "mapping/search/searchers.h"
#include "sim/memory/memory_view.h"
#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd {
namespace {

constexpr double kClockGhz = 1.83;
constexpr double kPeakFlopsPerS = 2.0 * 132 * 4 * 512 * kClockGhz * 1e9;
constexpr double kDramBytesPerS = 3350e9;

struct Searched {
  KernelPlan plan;
  mapping::MappingCost cost;
  std::string point;
};

Searched search(const ir::AttentionAttrs& attention) {
  const SocConfig soc = test::load_shipped("h100_like.yaml");
  const SimdParams params = test::simd_params_of(soc);
  const MemoryView memory =
      sim::memory_view(soc.dram.bandwidth_gbps * 1e9, soc.dram.latency_ns * 1e-9, kClockGhz);
  const ir::Op op{"attn", attention, ir::DType::kFp16, {}};
  const auto query = simd_attention_query(params, op, memory, kClockGhz, {});
  EXPECT_TRUE(query.has_value());
  const mapping::SearchResult best =
      mapping::exhaustive_search(*query->problem, mapping::Objective{});
  EXPECT_TRUE(best.found());
  return {query->problem->plan(best.best), best.best_cost,
          query->problem->space().describe(best.best)};
}

double bytes(int64_t heads, int64_t rows, int64_t d) { return 2.0 * heads * rows * d; }

TEST(SimdAttentionSpace, LongPrefillStaysFusedAndRespectsTheComputePeak) {
  const ir::AttentionAttrs prefill{
      .b = 1, .h = 32, .kv_heads = 32, .s = 4096, .kv_len = 4096, .d = 128, .causal = false};
  const Searched found = search(prefill);
  EXPECT_EQ(found.plan.kernel, "flash_attention") << found.point;
  const double flops = 4.0 * 32 * 4096.0 * 4096.0 * 128;  // QK^T and PV, 2 FLOPs per MAC
  EXPECT_GE(found.cost.latency_s, flops / kPeakFlopsPerS) << found.point;
  // Q, K and V are read at least once.
  EXPECT_GE(static_cast<double>(found.plan.dram_read_bytes), 3 * bytes(32, 4096, 128));
  EXPECT_EQ(found.cost.bound, mapping::Bound::kCompute) << found.point;
}

TEST(SimdAttentionSpace, DecodeSplitsItsKeysAndIsNoFasterThanReadingThem) {
  const ir::AttentionAttrs decode{
      .b = 1, .h = 32, .kv_heads = 8, .s = 1, .kv_len = 8192, .d = 128, .causal = false};
  const Searched found = search(decode);
  EXPECT_EQ(found.plan.kernel, "flash_attention") << found.point;
  EXPECT_GT(found.plan.mapping["kv_split"].get<int64_t>(), 1) << found.point;
  const double kv = 2 * bytes(8, 8192, 128);  // K and V of the 8 KV heads, fp16
  EXPECT_GE(static_cast<double>(found.plan.dram_read_bytes), kv) << found.point;
  EXPECT_GE(found.cost.latency_s, kv / kDramBytesPerS) << found.point;
}

}  // namespace
}  // namespace polyarch::archs::simd
