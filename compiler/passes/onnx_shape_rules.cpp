#include "compiler/passes/onnx_shape_rules.h"

#include <algorithm>

#include "compiler/passes/onnx_opset_changes.h"
#include "compiler/passes/unknown_ops.h"

namespace polyarch::passes {

ShapeRule default_domain_shape_rule(const std::string& op_type) {
  for (auto lookup : {elementwise_shape_rule, nn_shape_rule, tensor_shape_rule, indexing_shape_rule,
                      signal_shape_rule, linear_shape_rule, selection_shape_rule}) {
    if (ShapeRule rule = lookup(op_type)) return rule;
  }
  return nullptr;
}

InferredResults infer_onnx_node(const ShapeContext& context) {
  const std::string& op_type = context.node().op_type;
  // Only the default domain's operators have rules; a custom domain's semantics are unknown.
  ShapeRule rule = context.node().domain.empty() ? default_domain_shape_rule(op_type) : nullptr;
  // A node --allow-unknown kept as a placeholder.
  if (rule == nullptr && context.node().domain == kUnknownOpDomain) rule = unknown_op_shape_rule;
  if (rule == nullptr) {
    const std::string domain = context.node().domain.empty() ? "" : context.node().domain + ".";
    node_error(context.op(),
               "unsupported ONNX operator " + domain + op_type + " (opset " +
                   std::to_string(context.node().opset) +
                   "); --allow-unknown costs it as a placeholder by its output bytes");
  }
  check_opset_changes(context);
  return rule(context);
}

std::vector<std::string> supported_onnx_op_types() {
  std::vector<std::string> types = elementwise_op_types();
  for (const auto& family : {nn_op_types(), tensor_op_types(), indexing_op_types(),
                             signal_op_types(), linear_op_types(), selection_op_types()}) {
    types.insert(types.end(), family.begin(), family.end());
  }
  std::sort(types.begin(), types.end());
  return types;
}

}  // namespace polyarch::passes
