#include "compiler/passes/unknown_ops.h"

#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

bool is_supported_onnx_node(const ir::OnnxNodeAttrs& node) {
  if (!node.domain.empty()) return false;
  return elementwise_shape_rule(node.op_type) != nullptr ||
         nn_shape_rule(node.op_type) != nullptr || tensor_shape_rule(node.op_type) != nullptr;
}

InferredResults unknown_op_shape_rule(const ShapeContext& context) {
  if (!context.has(0)) {
    context.fail(
        "(unknown operator) has no operand to take its result shape from and its model does "
        "not declare one; --allow-unknown needs either");
  }
  if (!context.shape_known(0)) return std::nullopt;
  return context.same_for_all(context.shape(0), context.dtype(0));
}

}  // namespace polyarch::passes
