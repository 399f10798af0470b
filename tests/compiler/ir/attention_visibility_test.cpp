// Which keys attention queries see, by hand and against a brute-force mask built from the
// definition: query i at position p = kv_len - s + i; causal window W keeps keys p - W + 1 .. p,
// a centred window floor((W - 1) / 2) keys before p and the rest after it.
#include "compiler/ir/attention_visibility.h"

#include <gtest/gtest.h>

#include <random>

#include "base/random_draw.h"

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

}  // namespace
}  // namespace polyarch::ir
