#pragma once
// The block-sparse layout (ir/block_sparse_layout.h) a visibility mask spells, for the attention
// fusion pass: a constant boolean mask over s queries x kv keys that is neither causal nor a
// sliding window may still be a block pattern, constant on every block x block cell (or, with a
// causal mask, constant but for the keys after each query's position).
#include <cstdint>
#include <functional>
#include <memory>

#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::passes {

struct BlockMaskPattern {
  std::shared_ptr<const ir::BlockSparseLayout> layout;
  bool causal = false;
};

// The coarsest block size (256, 128, 64, 32 or 16 tokens, dividing s and kv) at which
// `visible(query, key)` is a block layout, without a causal mask tried first; nullopt when none
// is. The queries are the last s of kv positions (s <= kv).
std::optional<BlockMaskPattern> block_mask_pattern(
    const std::function<bool(int64_t, int64_t)>& visible, int64_t s, int64_t kv);

}  // namespace polyarch::passes
