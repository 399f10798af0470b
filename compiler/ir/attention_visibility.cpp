#include "compiler/ir/attention_visibility.h"

#include <algorithm>

#include "base/checked_math.h"
#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::ir {
namespace {

// Keys a window keeps before the query's own position (the rest come after it when not causal).
int64_t keys_before(const AttentionAttrs& attention) {
  return attention.causal ? attention.window - 1 : (attention.window - 1) / 2;
}

// Sum over p in [a, b] of min(p + c, cap).
int64_t sum_of_min(int64_t a, int64_t b, int64_t c, int64_t cap) {
  if (b < a) return 0;
  const int64_t rising_end = std::min(b, cap - c - 1);  // p + c < cap up to here
  int64_t total = 0;
  if (rising_end >= a) {
    const int64_t count = rising_end - a + 1;
    total = checked_mul(count, a + rising_end + 2 * c, "attention scores") / 2;
  }
  const int64_t flat_start = std::max(a, cap - c);
  if (flat_start <= b) {
    total = checked_add(total, checked_mul(b - flat_start + 1, cap, "attention scores"),
                        "attention scores");
  }
  return total;
}

// Sum over p in [a, b] of max(p - c, 0).
int64_t sum_of_excess(int64_t a, int64_t b, int64_t c) {
  const int64_t start = std::max(a, c);
  if (b < start) return 0;
  return checked_mul(b - start + 1, (start - c) + (b - c), "attention scores") / 2;
}

// Scores of one layout cell: queries at positions [first, last] against keys [key_first,
// key_end), under a causal mask only keys <= the query's position.
int64_t cell_scores(int64_t first, int64_t last, int64_t key_first, int64_t key_end, bool causal) {
  if (last < first || key_end <= key_first) return 0;
  if (!causal) return checked_mul(last - first + 1, key_end - key_first, "attention scores");
  // Position p sees min(p - key_first + 1, key count) keys once p >= key_first.
  return sum_of_min(std::max(first, key_first), last, 1 - key_first, key_end - key_first);
}

// The positions of layout row `row` that hold queries: [first, last].
std::pair<int64_t, int64_t> row_positions(const AttentionAttrs& attention, int64_t row) {
  const BlockSparseLayout& layout = *attention.block_sparse;
  const int64_t block_start = (layout.first_query_block + row) * layout.block;
  return {std::max(block_start, attention.kv_len - attention.s),
          std::min(block_start + layout.block, attention.kv_len) - 1};
}

// Scores of a block-sparse head: each visible cell counted exactly.
int64_t block_sparse_scores(const AttentionAttrs& attention) {
  const BlockSparseLayout& layout = *attention.block_sparse;
  int64_t total = 0;
  for (int64_t row = 0; row < layout.query_blocks; ++row) {
    const auto [first, last] = row_positions(attention, row);
    for (int64_t column = 0; column < layout.key_blocks; ++column) {
      if (!layout.visible(row, column)) continue;
      const int64_t key_first = column * layout.block;
      const int64_t key_end = std::min(key_first + layout.block, attention.kv_len);
      total = checked_add(total, cell_scores(first, last, key_first, key_end, attention.causal),
                          "attention scores");
    }
  }
  return total;
}

// Sorts and merges ranges into disjoint ones with gaps between them; empty ones dropped.
std::vector<KeyRange> merged(std::vector<KeyRange> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const KeyRange& a, const KeyRange& b) { return a.first < b.first; });
  std::vector<KeyRange> runs;
  for (const KeyRange& range : ranges) {
    if (range.size() == 0) continue;
    if (!runs.empty() && range.first <= runs.back().end) {
      runs.back().end = std::max(runs.back().end, range.end);
    } else {
      runs.push_back(range);
    }
  }
  return runs;
}

// The keys queries [first_query, last_query] of a block-sparse op see: per layout row, the
// visible blocks' keys, under a causal mask up to the row's last query in the range.
std::vector<KeyRange> block_sparse_runs(const AttentionAttrs& attention, int64_t first_query,
                                        int64_t last_query) {
  const BlockSparseLayout& layout = *attention.block_sparse;
  const int64_t offset = attention.kv_len - attention.s;
  const int64_t first_position = offset + first_query;
  const int64_t last_position = offset + last_query;
  std::vector<KeyRange> ranges;
  for (int64_t row = first_position / layout.block - layout.first_query_block;
       row <= last_position / layout.block - layout.first_query_block; ++row) {
    const int64_t row_last = std::min(last_position, row_positions(attention, row).second);
    const int64_t key_cap = attention.causal ? row_last + 1 : attention.kv_len;
    for (int64_t column = 0; column < layout.key_blocks; ++column) {
      if (!layout.visible(row, column)) continue;
      const int64_t key_first = column * layout.block;
      ranges.push_back(
          {key_first, std::min({key_first + layout.block, attention.kv_len, key_cap})});
    }
  }
  return merged(std::move(ranges));
}

}  // namespace

KeyRange visible_keys(const AttentionAttrs& attention, int64_t query) {
  if (attention.block_sparse) return visible_keys(attention, query, query);
  const int64_t kv = attention.kv_len;
  const int64_t position = kv - attention.s + query;
  if (attention.window <= 0) {
    if (!attention.causal) return {0, kv};
    return {0, std::clamp<int64_t>(position + 1, 0, kv)};
  }
  const int64_t before = keys_before(attention);
  const int64_t after = attention.window - 1 - before;
  return {std::clamp<int64_t>(position - before, 0, kv),
          std::clamp<int64_t>(position + after + 1, 0, kv)};
}

KeyRange visible_keys(const AttentionAttrs& attention, int64_t first_query, int64_t last_query) {
  if (attention.block_sparse) {
    const std::vector<KeyRange> runs = block_sparse_runs(attention, first_query, last_query);
    if (runs.empty()) return {};
    return {runs.front().first, runs.back().end};
  }
  return {visible_keys(attention, first_query).first, visible_keys(attention, last_query).end};
}

std::vector<KeyRange> visible_key_runs(const AttentionAttrs& attention, int64_t first_query,
                                       int64_t last_query) {
  if (attention.block_sparse) return block_sparse_runs(attention, first_query, last_query);
  return merged({visible_keys(attention, first_query, last_query)});
}

int64_t keys_seen(const AttentionAttrs& attention) {
  if (attention.s <= 0) return 0;
  int64_t keys = 0;
  for (const KeyRange& run : visible_key_runs(attention, 0, attention.s - 1)) keys += run.size();
  return keys;
}

bool sees_key(const AttentionAttrs& attention, int64_t query, int64_t key) {
  const int64_t position = attention.kv_len - attention.s + query;
  if (const auto& layout = attention.block_sparse) {
    if (attention.causal && key > position) return false;
    return layout->visible(position / layout->block - layout->first_query_block,
                           key / layout->block);
  }
  const KeyRange seen = visible_keys(attention, query);
  return key >= seen.first && key < seen.end;
}

int64_t visible_scores_per_head(const AttentionAttrs& attention) {
  if (attention.block_sparse) return block_sparse_scores(attention);
  const int64_t s = attention.s;
  const int64_t kv = attention.kv_len;
  if (attention.window <= 0) {
    if (!attention.causal) return checked_mul(s, kv, "attention scores");
    // Query i sees min(kv, kv - s + i + 1) keys.
    if (s <= kv) {
      return checked_add(checked_mul(s, kv - s, "attention scores"),
                         checked_mul(s, s + 1, "attention scores") / 2, "attention scores");
    }
    return checked_add(checked_mul(kv, kv + 1, "attention scores") / 2,
                       checked_mul(s - kv, kv, "attention scores"), "attention scores");
  }
  // Positions p = kv - s ... kv - 1 (a window needs s <= kv: op_validate). Each sees
  // min(p + after + 1, kv) - max(p - before, 0) keys.
  const int64_t before = keys_before(attention);
  const int64_t after = attention.window - 1 - before;
  const int64_t first = kv - s;
  const int64_t last = kv - 1;
  return sum_of_min(first, last, after + 1, kv) - sum_of_excess(first, last, before);
}

}  // namespace polyarch::ir
