#pragma once
// 64-bit counter arithmetic that reports overflow instead of wrapping: cycle, byte and MAC
// counts of large models (GPT-3-sized) approach 2^63 when multiplied naively.
#include <cstdint>
#include <string>

#include "base/error.h"

namespace polyarch {

inline int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) {
    throw_bad_input({}, std::string("64-bit overflow computing ") + what);
  }
  return result;
}

inline int64_t checked_add(int64_t a, int64_t b, const char* what) {
  int64_t result = 0;
  if (__builtin_add_overflow(a, b, &result)) {
    throw_bad_input({}, std::string("64-bit overflow computing ") + what);
  }
  return result;
}

inline int64_t ceil_div(int64_t numerator, int64_t denominator) {
  return (numerator + denominator - 1) / denominator;
}

// The smallest multiple of `multiple` that is at least `value` (both positive).
inline int64_t round_up(int64_t value, int64_t multiple) {
  return ceil_div(value, multiple) * multiple;
}

}  // namespace polyarch
