#pragma once
// Evaluates the ONNX operators that exporters use on constants (shape chains, masks, index
// arithmetic) so constant folding can replace them by their values.
#include <optional>
#include <vector>

#include "compiler/passes/onnx_shape_context.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

// Whether evaluate_onnx_node can compute this op type.
bool is_evaluable(const std::string& op_type);

// Values of the node's results, given its operands' values (ONNX positions, nullopt for an
// omitted operand), their tensors (Shape needs only the operand's shape) and the result types
// shape inference found. nullopt when the op type is not evaluable.
std::optional<std::vector<Values>> evaluate_onnx_node(
    const ShapeContext& context, const std::vector<std::optional<Values>>& operands,
    const std::vector<TypedShape>& results);

}  // namespace polyarch::passes
