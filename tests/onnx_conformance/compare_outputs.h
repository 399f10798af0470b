#pragma once
// Holds a result of the program to ONNX's expected tensor as ONNX's backend test runner does
// for reals (numpy.testing.assert_allclose with rtol 1e-3, atol 1e-7; NaN matches NaN), and
// exactly for integers and booleans. The program writes every output as float32, so the element
// type is not compared: an integer result must be that integer exactly.
#include <optional>
#include <string>

#include "compiler/interp/npy_io.h"
#include "tests/onnx_conformance/tensor_file.h"

namespace polyarch::onnx_conformance {

constexpr double kRelativeTolerance = 1e-3;
constexpr double kAbsoluteTolerance = 1e-7;

// Whether `actual` stands for `expected` element i under the rules above.
bool element_matches(const StoredTensor& expected, int64_t i, float actual);

// Why the result differs ("shape [2] (expected [3])", "4 of 6 elements differ, the first at 1:
// 0.5 (expected 0.25)"), or nullopt when it matches.
std::optional<std::string> output_mismatch(const StoredTensor& expected,
                                           const interp::DenseTensor& actual);

}  // namespace polyarch::onnx_conformance
