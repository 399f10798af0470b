// BigBird layouts derived by hand from the drawing rule in block_sparse_layout.h, the random
// blocks from std::mt19937_64's outputs for seed 1 (fixed by the C++ standard; printed once and
// reduced by hand below), and the text form of a layout.
#include "compiler/ir/block_sparse_layout.h"

#include <gtest/gtest.h>

namespace polyarch::ir {
namespace {

std::vector<std::vector<int>> rows_of(const BlockSparseLayout& layout) {
  std::vector<std::vector<int>> rows;
  for (int64_t row = 0; row < layout.query_blocks; ++row) {
    rows.emplace_back();
    for (int64_t column = 0; column < layout.key_blocks; ++column) {
      rows.back().push_back(layout.visible(row, column) ? 1 : 0);
    }
  }
  return rows;
}

// 12 positions in blocks of 2: 6 x 6 blocks; local 3, global 1, random 1, seed 1, not causal.
// The first five outputs of std::mt19937_64(1):
//   x0 = 2469588189546311528  (mod 3 = 2)
//   x1 = 2516265689700432462  (mod 2 = 0)
//   x2 = 8323445853463659930  (mod 2 = 0)
//   x3 = 387828560950575246   (mod 2 = 0)
//   x4 = 6472927700900931384  (mod 3 = 0)
// (none is at or above the rejection limit 2^64 - 1 - (2^64 - 1) mod n for n = 2 or 3).
//   row 0: global, sees all                                   1 1 1 1 1 1
//   row 1: global col 0, local 0..2; candidates {3,4,5}: x0 mod 3 = 2 -> 5
//                                                             1 1 1 0 0 1
//   row 2: col 0, local 1..3; candidates {4,5}: x1 mod 2 = 0 -> 4
//                                                             1 1 1 1 1 0
//   row 3: col 0, local 2..4; candidates {1,5}: x2 mod 2 = 0 -> 1
//                                                             1 1 1 1 1 0
//   row 4: col 0, local 3..5; candidates {1,2}: x3 mod 2 = 0 -> 1
//                                                             1 1 0 1 1 1
//   row 5: col 0, local 4..5; candidates {1,2,3}: x4 mod 3 = 0 -> 1
//                                                             1 1 0 0 1 1
TEST(BlockSparseLayout, BigBirdRandomBlocksAreTheHandDrawnOnesForSeedOne) {
  const BlockSparseLayout layout =
      bigbird_layout({.local = 3, .global = 1, .random = 1, .seed = 1}, 2, 12, 12, false);
  const std::vector<std::vector<int>> expected = {{1, 1, 1, 1, 1, 1}, {1, 1, 1, 0, 0, 1},
                                                  {1, 1, 1, 1, 1, 0}, {1, 1, 1, 1, 1, 0},
                                                  {1, 1, 0, 1, 1, 1}, {1, 1, 0, 0, 1, 1}};
  EXPECT_EQ(rows_of(layout), expected);
  EXPECT_EQ(layout.visible_cells(), 29);
  EXPECT_EQ(block_sparse_text(std::make_shared<const BlockSparseLayout>(layout)),
            " block=2 local=3 global=1 random=1 seed=1");
}

TEST(BlockSparseLayout, AnotherSeedDrawsOtherBlocks) {
  const BigBirdSpec spec{.local = 3, .global = 1, .random = 1, .seed = 1};
  BigBirdSpec other = spec;
  other.seed = 2;
  EXPECT_NE(bigbird_layout(spec, 2, 12, 12, false).cells,
            bigbird_layout(other, 2, 12, 12, false).cells);
}

// 8 positions in blocks of 2, causal; local 1 (its own block), global 1, random 1, seed 1. Under
// the causal mask a row draws only among blocks up to its own:
//   row 0: global                                                  1 1 1 1
//   row 1: col 0, own 1; candidates none: no draw                  1 1 0 0
//   row 2: col 0, own 2; candidates {1}: x0 mod 1 = 0 -> 1         1 1 1 0
//   row 3: col 0, own 3; candidates {1,2}: x1 mod 2 = 0 -> 1       1 1 0 1
TEST(BlockSparseLayout, CausalBigBirdDrawsOnlyEarlierBlocks) {
  const BlockSparseLayout layout =
      bigbird_layout({.local = 1, .global = 1, .random = 1, .seed = 1}, 2, 8, 8, true);
  const std::vector<std::vector<int>> expected = {
      {1, 1, 1, 1}, {1, 1, 0, 0}, {1, 1, 1, 0}, {1, 1, 0, 1}};
  EXPECT_EQ(rows_of(layout), expected);
}

TEST(BlockSparseLayout, ADecodeStepKeepsThePrefillsRowForItsPosition) {
  const BigBirdSpec spec{.local = 3, .global = 1, .random = 1, .seed = 1};
  const BlockSparseLayout prefill = bigbird_layout(spec, 2, 12, 12, false);
  // One query at position 11 (block 5): the prefill's last row.
  const BlockSparseLayout decode = bigbird_layout(spec, 2, 1, 12, false);
  EXPECT_EQ(decode.first_query_block, 5);
  ASSERT_EQ(decode.query_blocks, 1);
  EXPECT_EQ(rows_of(decode)[0], rows_of(prefill)[5]);
}

TEST(BlockSparseLayout, AnExplicitMaskPrintsAsHexRowsAndReadsBack) {
  // 2 x 6 blocks: row 0 sees blocks 0, 1, 2 and 5 (1110 01 -> e, 4), row 1 block 4 (0000 10).
  const std::vector<uint8_t> cells = {1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  const auto layout = std::make_shared<const BlockSparseLayout>(explicit_layout(4, 8, 24, cells));
  EXPECT_EQ(layout->first_query_block, 4);
  EXPECT_EQ(block_sparse_text(layout), " block=4 block_mask=e4.08");
  EXPECT_EQ(cells_from_hex("e4.08", 2, 6), cells);
  EXPECT_FALSE(cells_from_hex("e4.0d", 2, 6));  // a bit past the last column
  EXPECT_FALSE(cells_from_hex("e4", 2, 6));     // a row missing
  EXPECT_FALSE(cells_from_hex("e4.0g", 2, 6));  // not a hex digit
  EXPECT_FALSE(cells_from_hex("e4-08", 2, 6));  // rows joined by something else
}

TEST(BlockSparseLayout, RowsAreThePositionBlocksHoldingQueries) {
  // 3 queries at positions 7..9 of 10 in blocks of 4: blocks 1 and 2 (the last cut to 2).
  EXPECT_EQ(position_blocks(10, 4), 3);
  EXPECT_EQ(layout_query_blocks(4, 3, 10), 2);
}

}  // namespace
}  // namespace polyarch::ir
