// The flash kernel under a block-sparse (BigBird) layout: it visits only the visible KV blocks,
// so its K/V staging shrinks with the visible-block fraction, and a decode step reads only its
// row's blocks of the KV cache.
#include <gtest/gtest.h>

#include <set>

#include "archs/simd/attention_mapper.h"
#include "archs/simd/attention_space.h"
#include "compiler/ir/block_sparse_layout.h"
#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd::test {
namespace {

ir::Op bigbird(ir::Op op, bool causal) {
  auto& attrs = std::get<ir::AttentionAttrs>(op.attrs);
  attrs.block_sparse = std::make_shared<const ir::BlockSparseLayout>(ir::bigbird_layout(
      {.local = 3, .global = 2, .random = 3, .seed = 1}, 64, attrs.s, attrs.kv_len, causal));
  return op;
}

// Query and KV tiles of 64 match the layout's blocks: without a causal mask each query block
// visits exactly its row's visible blocks, and stages 2 x 64 x d K/V elements for each.
// 4096 tokens are 64 x 64 blocks; BigBird with local 3, global 2, random 3 sees, by hand:
//   rows 0, 1 (global)                       64 each                    128
//   row 2: blocks 0, 1 (global), 1..3 local  4 + 3 random                 7
//   rows 3..62: 2 global + 3 local           5 + 3 random, 60 rows      480
//   row 63: 2 global + 62, 63 local          4 + 3 random                 7
// 622 of 4096 cells, whatever blocks the random draws pick.
TEST(SimdBlockSparseAttention, FlashTilesVisitOnlyTheVisibleBlocks) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  const ir::Op full = attention(1, 32, 4096, 4096, 128, false);
  const ir::Op sparse = bigbird(full, false);
  const auto& attrs = std::get<ir::AttentionAttrs>(sparse.attrs);
  const int64_t cells = 622;
  ASSERT_EQ(attrs.block_sparse->visible_cells(), cells);
  const FlashTiling tiling{64, 64, 1};
  const int64_t dram_latency = 878;  // 480 ns at 1.83 GHz: only the items' Q fetch sees it
  const KernelPlan dense = *plan_flash_tiling(params, std::get<ir::AttentionAttrs>(full.attrs),
                                              ir::DType::kBf16, tiling, dram_latency);
  const KernelPlan plan = *plan_flash_tiling(params, attrs, ir::DType::kBf16, tiling, dram_latency);
  EXPECT_EQ(dense.mapping.at("kv_blocks").get<int64_t>(), int64_t{32} * 64 * 64);
  EXPECT_EQ(plan.mapping.at("kv_blocks").get<int64_t>(), int64_t{32} * cells);
  // L2 traffic: the K/V blocks staged, plus Q and O once.
  const int64_t q_and_o = int64_t{2} * 32 * 4096 * 128 * 2;
  const int64_t kv_block_bytes = int64_t{2} * 64 * 128 * 2;
  EXPECT_EQ(plan.l2_bytes, int64_t{32} * cells * kv_block_bytes + q_and_o);
  EXPECT_EQ(dense.l2_bytes, int64_t{32} * 64 * 64 * kv_block_bytes + q_and_o);
  // MACs: visible elements x 2 d b h (every visible cell is a whole 64 x 64 block here).
  EXPECT_EQ(plan.macs, cells * 64 * 64 * int64_t{2} * 128 * 32);
}

// A decode step at position 65535 (block 1023, the last): global blocks 0 and 1, local 1022 and
// 1023 (1024 is past the end), and 3 random ones: 7 blocks of 64 keys. With grouped-query heads
// the heads in flight keep K and V in L2 and read them once: 7 x 64 keys, not 65536.
TEST(SimdBlockSparseAttention, DecodeReadsOnlyItsRowsBlocksOfTheKvCache) {
  SocConfig soc = load_shipped("h100_like.yaml");
  ir::Op op = attention(32, 32, 1, 65536, 128, true);
  std::get<ir::AttentionAttrs>(op.attrs).kv_heads = 8;
  op = bigbird(op, true);
  const auto& attrs = std::get<ir::AttentionAttrs>(op.attrs);
  ASSERT_EQ(attrs.block_sparse->visible_cells(), 7);
  const sim::OpResult result = run_one(soc, simd_params_of(soc), op);
  const int64_t kv_bytes = int64_t{2} * 32 * 8 * 7 * 64 * 128 * 2;
  const int64_t queries = int64_t{32} * 32 * 128 * 2;
  EXPECT_EQ(result.dram_bytes_read, kv_bytes + queries);
}

// A stored mapping decision is keyed by the op's shape: another pattern is another decision.
TEST(SimdBlockSparseAttention, TheMappingKeyTellsPatternsApart) {
  const SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  const MemoryView memory{3350.0 / 1.83, 878};
  const ir::Op full = attention(1, 8, 256, 256, 64, false);
  ir::Op other_seed = bigbird(full, false);
  auto& attrs = std::get<ir::AttentionAttrs>(other_seed.attrs);
  attrs.block_sparse = std::make_shared<const ir::BlockSparseLayout>(
      ir::bigbird_layout({.local = 3, .global = 2, .random = 3, .seed = 2}, 64, 256, 256, false));
  ir::Op explicit_mask = full;
  std::get<ir::AttentionAttrs>(explicit_mask.attrs).block_sparse =
      std::make_shared<const ir::BlockSparseLayout>(
          ir::explicit_layout(64, 256, 256, std::vector<uint8_t>(16, 1)));
  std::set<std::string> keys;
  for (const ir::Op& op : {full, bigbird(full, false), other_seed, explicit_mask}) {
    keys.insert(simd_attention_query(params, op, memory, 1.83, {})->op_shape);
  }
  EXPECT_EQ(keys.size(), 4u);
}

}  // namespace
}  // namespace polyarch::archs::simd::test
