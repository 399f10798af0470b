#include "compiler/ir/operand_shapes.h"

#include <variant>

#include "compiler/ir/shape_text.h"

namespace polyarch::ir {

std::optional<OperandShapes> operand_shapes(const Op& op) {
  if (const auto* gemm = std::get_if<GemmAttrs>(&op.attrs)) {
    // A single GEMM may also be written without its unit batch dimension; B may be shared
    // by the whole batch (a weight) or per batch (attention's K and V).
    std::vector<Shape> a_shapes = {{gemm->batch, gemm->m, gemm->k}};
    if (gemm->batch == 1) a_shapes.push_back({gemm->m, gemm->k});
    std::vector<Shape> b_shapes = {{gemm->k, gemm->n}, {gemm->batch, gemm->k, gemm->n}};
    return OperandShapes{{a_shapes, b_shapes}, {gemm->batch, gemm->m, gemm->n}};
  }
  if (const auto* conv = std::get_if<Conv2dAttrs>(&op.attrs)) {
    return OperandShapes{{{{conv->n, conv->c, conv->h, conv->w}},
                          {{conv->k, conv->c / conv->groups, conv->r, conv->s}}},
                         {conv->n, conv->k, conv->out_h(), conv->out_w()}};
  }
  return std::nullopt;
}

std::optional<std::string> operand_shape_problem(const Op& op, const OperandShapes& expected,
                                                 std::size_t position, const Tensor& input) {
  // Operands past the fixed ones (a bias) and shapes nobody has inferred yet are not held.
  if (position >= expected.inputs.size() || input.shape.empty()) return std::nullopt;
  const std::vector<Shape>& accepted = expected.inputs[position];
  for (const Shape& shape : accepted) {
    if (input.shape == shape) return std::nullopt;
  }
  return "op '" + op.name + "': input '" + input.name + "' has shape " + shape_text(input.shape) +
         ", expected " + shape_text(accepted.front());
}

}  // namespace polyarch::ir
