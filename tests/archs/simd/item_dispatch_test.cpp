// Items of unequal length on cores that hold several at once, sharing each core's steps: spans
// of active cores derived by hand.
#include "archs/simd/item_dispatch.h"

#include <gtest/gtest.h>

namespace polyarch::archs::simd {
namespace {

// One core, two slots: both items start together and share it; the core works 1 + 3 = 4 steps.
TEST(ItemDispatch, ACoreWorksWithoutPauseUntilItsItemsAreDone) {
  const std::vector<ActiveSpan> spans = dispatch_items({1, 3}, 1, 1, 2);
  ASSERT_EQ(spans.size(), 1U);
  EXPECT_EQ(spans[0], (ActiveSpan{4, 1}));
}

// Two cores of one slot: core 0 takes the 4-step item, core 1 the next one, then each 1-step
// item as it frees (steps 1, 2, 3): both finish at step 4.
TEST(ItemDispatch, FreedSlotsTakeTheNextItemInLaunchOrder) {
  const std::vector<ActiveSpan> spans = dispatch_items({4, 1, 1, 1, 1}, 1, 2, 1);
  ASSERT_EQ(spans.size(), 1U);
  EXPECT_EQ(spans[0], (ActiveSpan{4, 2}));
}

// Two cores of two slots, items 2, 2, 2, 2, 8: breadth first, each core holds two 2-step items
// at half speed, all four end at step 4; core 0's slot frees first (lower index on a tie) and
// takes the 8-step item: core 0 works 12 steps, core 1 four. One core at a time (no sharing)
// would hand the long item out at step 2 and end at step 10.
TEST(ItemDispatch, SharingACoreDelaysTheLateLongItem) {
  const std::vector<ActiveSpan> spans = dispatch_items({2, 2, 2, 2, 8}, 1, 2, 2);
  ASSERT_EQ(spans.size(), 2U);
  EXPECT_EQ(spans[0], (ActiveSpan{4, 2}));
  EXPECT_EQ(spans[1], (ActiveSpan{8, 1}));
}

// A pattern repeated: causal query blocks 1, 2, 3, 4 of two heads on four one-slot cores. Core
// c takes block c + 1 of head 0. At step 1 core 0 takes head 1's 1-step block (ends at 2); at
// step 2 cores 0 and 1 free together, core 0 (lower index) takes the 2-step block (ends at 4),
// core 1 the 3-step one (ends at 5); at step 3 core 2 takes the 4-step one (ends at 7); core 3
// ends at 4. Four cores work 4 steps, two the 5th, one the 6th and 7th.
TEST(ItemDispatch, RepeatsThePatternInLaunchOrder) {
  const std::vector<ActiveSpan> spans = dispatch_items({1, 2, 3, 4}, 2, 4, 1);
  const std::vector<ActiveSpan> expected = {{4, 4}, {1, 2}, {2, 1}};
  EXPECT_EQ(spans, expected);
  int64_t core_steps = 0;
  for (const ActiveSpan& span : spans) core_steps += span.steps * span.active_cores;
  EXPECT_EQ(core_steps, 2 * (1 + 2 + 3 + 4));
}

TEST(ItemDispatch, NoItemsNoSpans) { EXPECT_TRUE(dispatch_items({}, 3, 4, 2).empty()); }

}  // namespace
}  // namespace polyarch::archs::simd
