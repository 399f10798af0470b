#pragma once
// Which keys each query of an attention op sees. Queries are the last s of the kv_len positions
// (a prefill has s == kv_len; a decode step's one query is the newest position), so query i sits
// at position p = kv_len - s + i. Without a window a query sees every key, or under a causal
// mask the keys up to its own position. A sliding window of W keys (Mistral, Longformer) keeps
// the W positions ending at p when causal, and W positions centred on p otherwise
// (floor((W - 1) / 2) before it, the rest after it); a window is cut at the sequence's ends.
// A block-sparse layout (block_sparse_layout.h) keeps the keys of the key blocks the query's
// position block sees, and under a causal mask only those up to p; it is never combined with a
// window. Masked scores are skipped, as flash kernels skip masked blocks: the cost models, the
// interpreter and the fused kernels' KV traffic all count from here.
#include <cstdint>
#include <vector>

#include "compiler/ir/op.h"

namespace polyarch::ir {

// Keys [first, end) of the kv_len positions.
struct KeyRange {
  int64_t first = 0;
  int64_t end = 0;
  int64_t size() const { return end > first ? end - first : 0; }
};

// The keys query `query` (0-based, < s) sees; for a block-sparse op the span from its first
// visible key to its last (visible_key_runs says which of them it sees).
KeyRange visible_keys(const AttentionAttrs& attention, int64_t query);

// The keys any of queries [first_query, last_query] sees: both ends of a query's range only
// grow with the query, so this is the first query's start to the last query's end (what a
// flash kernel's query block visits). For a block-sparse op, the span of visible_key_runs.
KeyRange visible_keys(const AttentionAttrs& attention, int64_t first_query, int64_t last_query);

// The keys any of queries [first_query, last_query] sees, as disjoint ranges in ascending order
// with gaps between them: one range without a block-sparse layout, none when nothing is seen.
std::vector<KeyRange> visible_key_runs(const AttentionAttrs& attention, int64_t first_query,
                                       int64_t last_query);

// Keys at least one of the op's s queries sees: what it reads of each K and V head (a decode
// step with a sliding window reads the window, not the whole cache).
int64_t keys_seen(const AttentionAttrs& attention);

// Whether query `query` sees key `key` (the definition, one pair at a time).
bool sees_key(const AttentionAttrs& attention, int64_t query, int64_t key);

// Scores one head computes: the sum over its s queries of the keys each sees (closed form; for
// a block-sparse op a sum over the layout's visible cells, each counted exactly).
int64_t visible_scores_per_head(const AttentionAttrs& attention);

}  // namespace polyarch::ir
