// FlashAttention-2's launch choices, read off its launch template and split heuristic
// (csrc/flash_attn/src/flash_fwd_launch_template.h, csrc/flash_attn/flash_api.cpp).
#include "archs/simd/flash2_launch.h"

#include <gtest/gtest.h>

namespace polyarch::archs::simd {
namespace {

constexpr int64_t kH100SharedMemory = 228 * 1024;
constexpr int64_t kA100SharedMemory = 164 * 1024;

void expect_tile(int64_t d, int64_t splits, int64_t smem, int64_t block_q, int64_t block_kv) {
  const std::optional<Flash2Tile> tile = flash2_tile(d, splits, smem);
  ASSERT_TRUE(tile.has_value()) << "head dim " << d;
  EXPECT_EQ(tile->block_q, block_q) << "head dim " << d;
  EXPECT_EQ(tile->block_kv, block_kv) << "head dim " << d;
}

TEST(Flash2Launch, TheTileFollowsTheHeadDimAsTheLaunchTemplatePicksIt) {
  expect_tile(64, 1, kH100SharedMemory, 128, 128);   // run_mha_fwd_hdim64
  expect_tile(80, 1, kH100SharedMemory, 128, 64);    // rounded to 96
  expect_tile(128, 1, kH100SharedMemory, 128, 64);   // run_mha_fwd_hdim128 on sm80 / sm90
  expect_tile(192, 1, kH100SharedMemory, 128, 64);
  // Head dim 256: two 64 x 64 CTAs need 2 x 2 B x 256 x 192 = 192 KiB: they fit an H100 SM
  // (228 KiB), not an A100's (164 KiB), where one 128 x 64 CTA (128 KiB) runs instead.
  expect_tile(256, 1, kH100SharedMemory, 64, 64);
  expect_tile(256, 1, kA100SharedMemory, 128, 64);
  EXPECT_FALSE(flash2_tile(320, 1, kH100SharedMemory).has_value());
}

TEST(Flash2Launch, TheSplitKernelRunsSixtyFourQueryRows) {
  expect_tile(64, 4, kH100SharedMemory, 64, 256);
  expect_tile(128, 4, kH100SharedMemory, 64, 128);
  expect_tile(256, 4, kH100SharedMemory, 64, 64);
}

// 32 x 16 heads x 8 query blocks of 64 fill 264 CTA slots many times over: no split.
TEST(Flash2Launch, APrefillThatFillsTheSmsIsNotSplit) {
  EXPECT_EQ(flash2_kv_splits(32 * 16, 512, 512, 128, 132), 1);
}

// A decode step of 8 heads: 8 items for 264 slots. 4096 keys are 32 blocks of 128; a split s
// fills 8 s / 264 of a wave (s <= 33). The best eligible split, 32, fills 256 / 264 = 0.970;
// 0.85 of it needs s >= 27.2, and 28 to 31 give the same 2 blocks per split as 27 (ineligible):
// 32 splits.
TEST(Flash2Launch, ADecodeStepSplitsItsKeysToFillTheSms) {
  EXPECT_EQ(flash2_kv_splits(8, 1, 4096, 128, 132), 32);
}

}  // namespace
}  // namespace polyarch::archs::simd
