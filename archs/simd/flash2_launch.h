#pragma once
// How FlashAttention-2 launches its forward kernel: the tile for a head dim and the number of
// KV splits, a library's fixed choices, not searched ones. Its launch template picks kBlockM x kBlockN per head dim on sm80/sm90 without
// dropout (Dao-AILab/flash-attention, csrc/flash_attn/src/flash_fwd_launch_template.h:
// run_mha_fwd_hdim32 ... hdim256; the split-KV kernel in run_mha_fwd_splitkv_dispatch). Every
// query block is a whole kBlockM tile: rows past the sequence are computed and not stored.
#include <cstdint>
#include <optional>

namespace polyarch::archs::simd {

struct Flash2Tile {
  int64_t block_q = 0;   // kBlockM
  int64_t block_kv = 0;  // kBlockN
};

// The tile for head dim `d` (rounded up to the library's 32, 64, 96, 128, 192 or 256), with
// `kv_split` > 1 the split-KV kernel's, on a core of `scratchpad_bytes` shared memory (the
// head dim 256 choice depends on it); nullopt above head dim 256, which the library refuses.
std::optional<Flash2Tile> flash2_tile(int64_t d, int64_t kv_split, int64_t scratchpad_bytes);

// The KV splits the library's heuristic picks (csrc/flash_attn/flash_api.cpp, set_params_splitkv
// and num_splits_heuristic): none when the (sequence, head, 64-query block) items almost fill
// twice the SMs (128-thread CTAs, two per SM), else the fewest splits whose last wave is at least
// 0.85 of the best fill, over split counts that change the KV blocks per split.
int64_t flash2_kv_splits(int64_t sequences_x_heads, int64_t queries, int64_t kv_len, int64_t d,
                         int64_t sms);

}  // namespace polyarch::archs::simd
