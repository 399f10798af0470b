#include "archs/simd/conv_k_steps.h"

#include <variant>

#include "base/checked_math.h"

namespace polyarch::archs::simd {

namespace {

// TMA's global strides are whole 16-byte units (CUTLASS's SM90 convolution: tma_alignment_bits
// = 128).
constexpr int64_t kTmaRowAlignmentBytes = 16;
// The narrowest asynchronous copy (cp.async cp-size 4, 8 or 16, PTX ISA).
constexpr int64_t kAsyncCopyMinBytes = 4;

}  // namespace

ConvKSteps conv_k_steps(const ir::Op& op, int64_t elem_bytes) {
  const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs);
  if (conv == nullptr) return {};
  const int64_t channels = conv->c / conv->groups;
  const int64_t row_bytes = checked_mul(channels, elem_bytes, "bytes");
  const int64_t taps = checked_mul(conv->r, conv->s, "filter taps");
  ConvKSteps steps;
  if (row_bytes % kTmaRowAlignmentBytes == 0) {
    steps.taps = taps;
  } else {
    steps.taps = row_bytes % kAsyncCopyMinBytes == 0 ? 1 : taps;
    steps.sync_engine = true;
  }
  steps.lane_taps = channels == 1 ? 1 : steps.taps;
  return steps;
}

}  // namespace polyarch::archs::simd
