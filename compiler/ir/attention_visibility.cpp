#include "compiler/ir/attention_visibility.h"

#include <algorithm>

#include "base/checked_math.h"

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

}  // namespace

KeyRange visible_keys(const AttentionAttrs& attention, int64_t query) {
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
  return {visible_keys(attention, first_query).first, visible_keys(attention, last_query).end};
}

int64_t visible_scores_per_head(const AttentionAttrs& attention) {
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
