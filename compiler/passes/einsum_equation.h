#pragma once
// An ONNX Einsum equation ("bij,bjk->bik", "...ii->...i", "ij" with the implicit output) read
// against its operands' shapes: each operand's axes as labels, the result's labels and every
// label's extent. Shape inference, lowering and the interpreter's kernel all read it.
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/op.h"

namespace polyarch::passes {

struct EinsumEquation {
  // One label per axis; the axes an ellipsis stands for get labels '0', '1', ... (no letter).
  std::vector<std::string> operands;
  std::string result;
  std::map<char, int64_t> extents;

  // Labels no result axis keeps: summed over.
  std::string summed() const;
  std::vector<int64_t> result_shape() const;
};

// A bad-input error naming the op for a malformed equation, a label whose extents differ
// between axes (broadcasting is not supported), or operands the equation does not describe.
EinsumEquation parse_einsum(const ir::Op& op, const std::string& equation,
                            const std::vector<std::vector<int64_t>>& shapes);

}  // namespace polyarch::passes
