#include "tests/onnx_conformance/compare_outputs.h"

#include <cmath>
#include <cstdio>

namespace polyarch::onnx_conformance {

namespace {

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

}  // namespace

bool element_matches(const StoredTensor& expected, int64_t i, float actual) {
  if (expected.is_real()) {
    const double want = expected.real(i);
    if (std::isnan(want) || std::isnan(actual)) return std::isnan(want) && std::isnan(actual);
    if (std::isinf(want) || std::isinf(actual)) return want == actual;
    return std::fabs(actual - want) <= kAbsoluteTolerance + kRelativeTolerance * std::fabs(want);
  }
  // int64 holds every float32 integer below 2^63; outside that range no int64 matches.
  if (!std::isfinite(actual) || std::nearbyint(actual) != actual || std::fabs(actual) >= 0x1p63) {
    return false;
  }
  return static_cast<int64_t>(actual) == expected.integer(i);
}

std::optional<std::string> output_mismatch(const StoredTensor& expected,
                                           const interp::DenseTensor& actual) {
  if (expected.is_string() || expected.is_complex()) {
    return "a string or complex result cannot be compared with a float32 .npy";
  }
  if (actual.shape != expected.dims) {
    return "shape " + shape_text(actual.shape) + " (expected " + shape_text(expected.dims) + ")";
  }
  int64_t differing = 0;
  int64_t first = -1;
  for (int64_t i = 0; i < expected.element_count(); ++i) {
    if (element_matches(expected, i, actual.values[static_cast<std::size_t>(i)])) continue;
    if (first < 0) first = i;
    ++differing;
  }
  if (differing == 0) return std::nullopt;
  const double want =
      expected.is_real() ? expected.real(first) : static_cast<double>(expected.integer(first));
  return std::to_string(differing) + " of " + std::to_string(expected.element_count()) +
         " elements differ, the first at " + std::to_string(first) + ": " +
         number_text(actual.values[static_cast<std::size_t>(first)]) + " (expected " +
         number_text(want) + ")";
}

}  // namespace polyarch::onnx_conformance
