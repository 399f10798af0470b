#include "compiler/passes/unknown_ops.h"

#include <algorithm>

#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

bool is_supported_onnx_node(const ir::OnnxNodeAttrs& node) {
  if (!node.domain.empty()) return false;
  return default_domain_shape_rule(node.op_type) != nullptr;
}

namespace {

// Nodes listed per operator before "and N more".
constexpr std::size_t kNodesListed = 4;

std::string operator_text(const ir::OnnxNodeAttrs& node) {
  return (node.domain.empty() ? "" : node.domain + ".") + node.op_type + " (opset " +
         std::to_string(node.opset) + ")";
}

std::string node_text(const ir::Op& op) {
  return op.where.key_path.empty() ? "'" + op.name + "'" : op.where.key_path;
}

}  // namespace

void require_supported_onnx_nodes(const ir::Graph& graph) {
  // Operator text -> its unsupported nodes, in the order the operators first appear.
  std::vector<std::pair<std::string, std::vector<const ir::Op*>>> unsupported;
  std::size_t nodes = 0;
  for (ir::NodeId op_id : graph.topological_ops()) {
    const ir::Op& op = graph.op(op_id);
    const ir::OnnxNodeAttrs* node = onnx_node(op);
    if (node == nullptr || node->domain == kUnknownOpDomain || is_supported_onnx_node(*node)) {
      continue;
    }
    const std::string text = operator_text(*node);
    auto entry = std::find_if(unsupported.begin(), unsupported.end(),
                              [&](const auto& known) { return known.first == text; });
    if (entry == unsupported.end()) entry = unsupported.insert(unsupported.end(), {text, {}});
    entry->second.push_back(&op);
    ++nodes;
  }
  if (nodes == 0) return;
  const ir::Op& first = *unsupported.front().second.front();
  if (nodes == 1) {
    node_error(first, "unsupported ONNX operator " + unsupported.front().first +
                          "; --allow-unknown costs it as a placeholder by its output bytes");
  }
  std::string message = std::to_string(nodes) + " nodes use " + std::to_string(unsupported.size()) +
                        " unsupported ONNX operator" + (unsupported.size() > 1 ? "s" : "") +
                        "; --allow-unknown costs them as placeholders by their output bytes:";
  for (const auto& [text, ops] : unsupported) {
    message += "\n  " + text + ": " + std::to_string(ops.size()) + " node" +
               (ops.size() > 1 ? "s" : "") + ", ";
    for (std::size_t i = 0; i < ops.size() && i < kNodesListed; ++i) {
      message += (i > 0 ? ", " : "") + node_text(*ops[i]);
    }
    if (ops.size() > kNodesListed) {
      message += " and " + std::to_string(ops.size() - kNodesListed) + " more";
    }
  }
  throw_bad_input({first.where.file, 0, 0, "graph"}, message);
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
