// Which keys attention queries see, by hand and against a brute-force mask built from the
// definition: query i at position p = kv_len - s + i; causal window W keeps keys p - W + 1 .. p,
// a centred window floor((W - 1) / 2) keys before p and the rest after it.
#include "compiler/ir/attention_visibility.h"

#include <gtest/gtest.h>

#include <random>

#include "base/random_draw.h"
#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::ir {
namespace {

AttentionAttrs head(int64_t s, int64_t kv_len, bool causal, int64_t window) {
  return {.b = 1, .h = 1, .kv_heads = 1, .s = s, .kv_len = kv_len, .d = 8, .causal = causal,
          .window = window};
}

// The definition, key by key.
bool sees(const AttentionAttrs& a, int64_t query, int64_t key) {
  const int64_t p = a.kv_len - a.s + query;
  if (a.window == 0) return !a.causal || key <= p;
  if (a.causal) return key <= p && key > p - a.window;
  const int64_t before = (a.window - 1) / 2;
  return key >= p - before && key <= p + (a.window - 1 - before);
}

TEST(AttentionVisibility, CausalWindowByHand) {
  // Five positions, window 3: 1, 2, 3, 3, 3 keys.
  const AttentionAttrs a = head(5, 5, true, 3);
  EXPECT_EQ(visible_scores_per_head(a), 12);
  EXPECT_EQ(visible_keys(a, 4).first, 2);
  EXPECT_EQ(visible_keys(a, 4).end, 5);
  EXPECT_EQ(visible_keys(a, 0).size(), 1);
}

TEST(AttentionVisibility, CentredWindowByHand) {
  // Six positions, window 4 (one key before, two after): 3, 4, 4, 4, 3, 2 keys.
  const AttentionAttrs a = head(6, 6, false, 4);
  EXPECT_EQ(visible_scores_per_head(a), 20);
  EXPECT_EQ(visible_keys(a, 2).first, 1);
  EXPECT_EQ(visible_keys(a, 2).end, 5);
}

TEST(AttentionVisibility, DecodeWithAWindowSeesOnlyTheWindow) {
  const AttentionAttrs a = head(1, 65536, true, 4096);
  EXPECT_EQ(visible_keys(a, 0).first, 65536 - 4096);
  EXPECT_EQ(visible_keys(a, 0).end, 65536);
  EXPECT_EQ(visible_scores_per_head(a), 4096);
  // A window longer than the sequence hides nothing beyond the causal mask.
  EXPECT_EQ(visible_scores_per_head(head(100, 100, true, 1000)),
            visible_scores_per_head(head(100, 100, true, 0)));
}

TEST(AttentionVisibility, QueryBlocksSpanTheirQueriesRanges) {
  const AttentionAttrs a = head(64, 64, true, 8);
  const KeyRange block = visible_keys(a, 16, 31);
  EXPECT_EQ(block.first, 9);  // query 16 sees keys 9..16
  EXPECT_EQ(block.end, 32);   // query 31 sees keys 24..31
}

TEST(AttentionVisibility, ClosedFormsMatchTheMaskKeyByKey) {
  std::mt19937_64 random(9);
  for (int trial = 0; trial < 400; ++trial) {
    const int64_t kv = random_int(random, 1, 90);
    const int64_t s = random_int(random, 1, kv);
    const bool causal = random_chance(random, 0.5);
    const int64_t window = random_chance(random, 0.2) ? 0 : random_int(random, 1, 100);
    const AttentionAttrs a = head(s, kv, causal, window);
    int64_t total = 0;
    for (int64_t query = 0; query < s; ++query) {
      int64_t seen = 0;
      for (int64_t key = 0; key < kv; ++key) {
        const bool visible = sees(a, query, key);
        seen += visible ? 1 : 0;
        const KeyRange range = visible_keys(a, query);
        ASSERT_EQ(visible, key >= range.first && key < range.end)
            << "s=" << s << " kv=" << kv << " causal=" << causal << " window=" << window
            << " query " << query << " key " << key;
      }
      total += seen;
    }
    ASSERT_EQ(visible_scores_per_head(a), total)
        << "s=" << s << " kv=" << kv << " causal=" << causal << " window=" << window;
  }
}

// Block-sparse layouts: per-cell counts by hand, and the closed sums against the definition.
AttentionAttrs with_layout(AttentionAttrs a, BlockSparseLayout layout) {
  a.block_sparse = std::make_shared<const BlockSparseLayout>(std::move(layout));
  return a;
}

// The 12-position BigBird layout of block_sparse_layout_test (29 of 36 cells visible, blocks of
// 2 tokens): 29 x 2 x 2 scores without a causal mask.
TEST(AttentionVisibility, BlockSparseScoresAreTheVisibleCellsWhole) {
  const AttentionAttrs a = with_layout(
      head(12, 12, false, 0),
      bigbird_layout({.local = 3, .global = 1, .random = 1, .seed = 1}, 2, 12, 12, false));
  EXPECT_EQ(visible_scores_per_head(a), 116);
}

// Causal, 8 positions in blocks of 2, layout rows {0..3}, {0,1}, {0,1,2}, {0,1,3}
// (block_sparse_layout_test). Per row, the keys each of its two positions sees:
//   row 0 (p 0, 1):  block 0 cut by the mask: 1 + 2                              =  3
//   row 1 (p 2, 3):  block 0: 2 + 2; block 1 cut: 1 + 2                          =  7
//   row 2 (p 4, 5):  blocks 0, 1: 4 + 4; block 2 cut: 1 + 2                      = 11
//   row 3 (p 6, 7):  blocks 0, 1: 4 + 4; block 3 cut: 1 + 2 (block 2 hidden)     = 11
// 32 in all: the causal 36 less positions 6, 7 against keys 4, 5.
TEST(AttentionVisibility, CausalBlockSparseCutsTheDiagonalBlockByHand) {
  const AttentionAttrs a =
      with_layout(head(8, 8, true, 0),
                  bigbird_layout({.local = 1, .global = 1, .random = 1, .seed = 1}, 2, 8, 8, true));
  EXPECT_EQ(visible_scores_per_head(a), 32);
  // Position 7 sees keys 0..3 and 6..7: two runs, spanning 0..7.
  const std::vector<KeyRange> runs = visible_key_runs(a, 7, 7);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].first, 0);
  EXPECT_EQ(runs[0].end, 4);
  EXPECT_EQ(runs[1].first, 6);
  EXPECT_EQ(runs[1].end, 8);
  EXPECT_EQ(visible_keys(a, 7).first, 0);
  EXPECT_EQ(visible_keys(a, 7).end, 8);
  // Queries 4..5 (row 2) see keys 0..5 together, query 4 only up to key 4.
  EXPECT_EQ(visible_key_runs(a, 4, 5).back().end, 6);
  EXPECT_EQ(visible_key_runs(a, 4, 4).back().end, 5);
}

TEST(AttentionVisibility, BlockSparseSumsMatchTheMaskKeyByKey) {
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t kv = random_int(random, 1, 70);
    const int64_t s = random_int(random, 1, kv);
    const int64_t block = random_int(random, 1, 9);
    const bool causal = random_chance(random, 0.5);
    const BigBirdSpec spec{.local = random_int(random, 0, 4),
                           .global = random_int(random, 0, 2),
                           .random = random_int(random, 0, 3),
                           .seed = static_cast<uint64_t>(trial)};
    const AttentionAttrs a =
        with_layout(head(s, kv, causal, 0), bigbird_layout(spec, block, s, kv, causal));
    const auto context = [&] {
      return "trial " + std::to_string(trial) + ": s=" + std::to_string(s) +
             " kv=" + std::to_string(kv) + " block=" + std::to_string(block) +
             " causal=" + std::to_string(causal);
    };
    int64_t total = 0;
    for (int64_t query = 0; query < s; ++query) {
      const int64_t position = kv - s + query;
      const int64_t row = position / block - a.block_sparse->first_query_block;
      std::vector<char> seen(static_cast<std::size_t>(kv), 0);
      for (const KeyRange& run : visible_key_runs(a, query, query)) {
        for (int64_t key = run.first; key < run.end; ++key) seen[key] = 1;
      }
      for (int64_t key = 0; key < kv; ++key) {
        // The definition: the layout's cell, and under the causal mask keys up to the position.
        const bool visible =
            a.block_sparse->visible(row, key / block) && (!causal || key <= position);
        total += visible ? 1 : 0;
        ASSERT_EQ(seen[key] != 0, visible) << context() << " query " << query << " key " << key;
        ASSERT_EQ(sees_key(a, query, key), visible) << context();
      }
    }
    ASSERT_EQ(visible_scores_per_head(a), total) << context();
  }
}

}  // namespace
}  // namespace polyarch::ir
