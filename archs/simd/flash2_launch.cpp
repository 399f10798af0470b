#include "archs/simd/flash2_launch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace polyarch::archs::simd {

namespace {

constexpr std::array<int64_t, 6> kHeadDims = {32, 64, 96, 128, 192, 256};
constexpr int64_t kElementBytes = 2;  // the library's 16-bit Q, K and V

}  // namespace

std::optional<Flash2Tile> flash2_tile(int64_t d, int64_t kv_split, int64_t scratchpad_bytes) {
  int64_t rounded = 0;
  for (int64_t head_dim : kHeadDims) {
    if (d <= head_dim) {
      rounded = head_dim;
      break;
    }
  }
  if (rounded == 0) return std::nullopt;
  if (kv_split > 1) {
    // run_mha_fwd_splitkv_dispatch: kBlockM 64, kBlockN 256 / 128 / 64 by head dim.
    return Flash2Tile{64, rounded <= 64 ? 256 : (rounded <= 128 ? 128 : 64)};
  }
  if (rounded <= 64) return Flash2Tile{128, 128};
  if (rounded <= 192) return Flash2Tile{128, 64};
  // Head dim 256: 64 x 64 when two such CTAs fit one SM's shared memory (Q and K, V blocks:
  // 2 bytes x d x (64 + 2 x 64) each), as on H100; else 128 x 64 when one of those fits a block,
  // as on A100.
  const int64_t two_small_ctas = 2 * kElementBytes * rounded * (64 + 2 * 64);
  const int64_t one_large_cta = kElementBytes * rounded * (128 + 2 * 64);
  if (scratchpad_bytes >= one_large_cta && scratchpad_bytes < two_small_ctas) {
    return Flash2Tile{128, 64};
  }
  return Flash2Tile{64, 64};
}

int64_t flash2_kv_splits(int64_t sequences_x_heads, int64_t queries, int64_t kv_len, int64_t d,
                         int64_t sms) {
  constexpr int64_t kMaxSplits = 128;
  auto ceil_div = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  const int64_t block_n = d <= 64 ? 256 : (d <= 128 ? 128 : 64);
  const int64_t n_blocks = ceil_div(kv_len, block_n);
  const int64_t items = sequences_x_heads * ceil_div(queries, 64);
  const int64_t slots = 2 * sms;
  if (static_cast<float>(items) >= 0.8f * static_cast<float>(slots)) return 1;
  const int64_t max_splits = std::min({kMaxSplits, slots, n_blocks});
  auto eligible = [&](int64_t splits) {
    return splits == 1 || ceil_div(n_blocks, splits) != ceil_div(n_blocks, splits - 1);
  };
  std::vector<float> efficiency;
  float best = 0.f;
  for (int64_t splits = 1; splits <= max_splits; ++splits) {
    float fill = 0.f;
    if (eligible(splits)) {
      const float waves = static_cast<float>(items * splits) / static_cast<float>(slots);
      fill = waves / std::ceil(waves);
    }
    best = std::max(best, fill);
    efficiency.push_back(fill);
  }
  for (int64_t splits = 1; splits <= max_splits; ++splits) {
    if (eligible(splits) && efficiency[static_cast<std::size_t>(splits - 1)] >= 0.85f * best) {
      return splits;
    }
  }
  return 1;
}

}  // namespace polyarch::archs::simd
