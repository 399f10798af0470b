#pragma once
// The keys that give an attention op a block-sparse pattern (block_sparse_layout.h), shared by
// layer lists and model builders:
//   block_sparse: {block: 64, local: 3, global: 2, random: 3, seed: 1}   BigBird (local, global,
//                 random and seed default to 0)
//   block_mask: FILE.npy  with  block: 64   an explicit mask: a 2-D bool or integer .npy (path
//                 relative to the file that names it) of query blocks x key blocks, nonzero
//                 where the block's queries see the block's keys (layer lists only)
#include <memory>
#include <optional>

#include "base/config_tree.h"
#include "compiler/ir/block_sparse_layout.h"
#include "compiler/ir/op.h"

namespace polyarch::frontend {

// A BigBird pattern before the op's lengths are known.
struct BigBirdKey {
  int64_t block = 0;
  ir::BigBirdSpec spec;
};

// `block_sparse:` of `owner` when given.
std::optional<BigBirdKey> read_bigbird_key(MapReader& owner);

// The layout `layer` gives `attention` (its other attributes read already): `block_sparse:` or
// `block_mask:` with `block:`; nullptr when neither. Errors name the file, line and key.
std::shared_ptr<const ir::BlockSparseLayout> read_block_sparse_keys(
    MapReader& layer, const ir::AttentionAttrs& attention);

}  // namespace polyarch::frontend
