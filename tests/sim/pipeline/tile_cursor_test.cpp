// The tile cursor against the plan written out tile by tile: the order it walks, where each
// repeating level begins, and where a fast-forward skip lands.
#include "sim/pipeline/tile_cursor.h"

#include <gtest/gtest.h>

#include <vector>

#include "base/error.h"

namespace polyarch::sim {
namespace {

constexpr TileShape kA{.cycles = 10, .dram_read_bytes = 100, .dram_write_bytes = 1};
constexpr TileShape kB{.cycles = 20, .dram_read_bytes = 200, .dram_write_bytes = 2};
constexpr TileShape kC{.cycles = 30, .dram_read_bytes = 300, .dram_write_bytes = 3};

// Twice: (A A B) three times, then C once — 2 x (3 x 3 + 1) = 20 tiles.
TilePlan sample_plan() {
  return {.blocks = {{.runs = {{kA, 2}, {kB, 1}}, .repeat = 3}, {.runs = {{kC, 1}}, .repeat = 1}},
          .plan_repeats = 2};
}

// The reference: the plan expanded by hand, in execution order.
std::vector<int64_t> expected_cycles() {
  std::vector<int64_t> once = {10, 10, 20, 10, 10, 20, 10, 10, 20, 30};
  std::vector<int64_t> all = once;
  all.insert(all.end(), once.begin(), once.end());
  return all;
}

std::vector<int64_t> walked_cycles(TileCursor cursor) {
  std::vector<int64_t> cycles;
  for (; !cursor.done(); cursor.advance()) cycles.push_back(cursor.tile().cycles);
  return cycles;
}

TEST(TileCursor, WalksRunsBlocksAndPlanRepeatsInExecutionOrder) {
  const TilePlan plan = sample_plan();
  const TileCursor cursor(plan);
  EXPECT_EQ(cursor.total_tiles(), 20);
  EXPECT_EQ(walked_cycles(cursor), expected_cycles());
}

TEST(TileCursor, IgnoresEmptyRunsAndBlocksNeverRepeated) {
  TilePlan plan = sample_plan();
  plan.blocks[0].runs.insert(plan.blocks[0].runs.begin() + 1, TileRun{kC, 0});
  plan.blocks.push_back({.runs = {{kC, 5}}, .repeat = 0});
  EXPECT_EQ(walked_cycles(TileCursor(plan)), expected_cycles());
}

TEST(TileCursor, SpansSumTheTrafficAndCyclesOfOneIteration) {
  const TilePlan plan = sample_plan();
  const TileCursor cursor(plan);
  const std::optional<RepeatSpan> block = cursor.span(RepeatLevel::kBlock);
  ASSERT_TRUE(block);
  EXPECT_EQ(block->iterations, 3);
  EXPECT_EQ(block->length, 3);
  EXPECT_EQ(block->cycles, 10 + 10 + 20);
  EXPECT_EQ(block->read_bytes, 100 + 100 + 200);
  EXPECT_EQ(block->write_bytes, 1 + 1 + 2);
  const std::optional<RepeatSpan> whole = cursor.span(RepeatLevel::kPlan);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->iterations, 2);
  EXPECT_EQ(whole->length, 10);
  EXPECT_EQ(whole->cycles, 3 * 40 + 30);
}

TEST(TileCursor, OuterLevelsBeginOnlyAtTheirBoundaries) {
  const TilePlan plan = sample_plan();
  TileCursor cursor(plan);
  cursor.advance();  // second A of the first block iteration
  EXPECT_TRUE(cursor.span(RepeatLevel::kRun));
  EXPECT_FALSE(cursor.span(RepeatLevel::kBlock));
  EXPECT_FALSE(cursor.span(RepeatLevel::kPlan));
  cursor.advance();
  cursor.advance();  // second block iteration begins
  ASSERT_TRUE(cursor.span(RepeatLevel::kBlock));
  EXPECT_EQ(cursor.span(RepeatLevel::kBlock)->iteration, 1);
  EXPECT_EQ(cursor.span(RepeatLevel::kBlock)->first_index, 0);
  EXPECT_FALSE(cursor.span(RepeatLevel::kPlan));
}

TEST(TileCursor, SkipLandsWhereAdvancingTileByTileWould) {
  const TilePlan plan = sample_plan();
  const std::vector<int64_t> reference = expected_cycles();
  for (RepeatLevel level : {RepeatLevel::kPlan, RepeatLevel::kBlock}) {
    TileCursor cursor(plan);
    const int64_t length = cursor.span(level)->length;
    cursor.skip(level, 1);
    EXPECT_EQ(cursor.index(), length);
    EXPECT_EQ(cursor.tile().cycles, reference[length]);
    EXPECT_EQ(walked_cycles(cursor).size(), reference.size() - length);
  }
  TileCursor cursor(plan);
  cursor.skip(RepeatLevel::kBlock, 3);  // all three iterations: block C is next
  EXPECT_EQ(cursor.index(), 9);
  EXPECT_EQ(cursor.tile().cycles, 30);
  EXPECT_TRUE(cursor.span(RepeatLevel::kBlock));
}

TEST(TileCursor, SkipPastTheLevelsEndIsAnError) {
  const TilePlan plan = sample_plan();
  TileCursor cursor(plan);
  EXPECT_THROW(cursor.skip(RepeatLevel::kBlock, 4), Error);
  cursor.advance();
  EXPECT_THROW(cursor.skip(RepeatLevel::kBlock, 1), Error);  // mid-iteration
}

}  // namespace
}  // namespace polyarch::sim
