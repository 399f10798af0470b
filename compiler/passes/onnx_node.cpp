#include "compiler/passes/onnx_node.h"

#include <algorithm>

namespace polyarch::passes {

const ir::OnnxNodeAttrs* onnx_node(const ir::Op& op) {
  return std::get_if<ir::OnnxNodeAttrs>(&op.attrs);
}

namespace {

template <typename T>
const T* attribute_of(const ir::OnnxNodeAttrs& node, const std::string& name) {
  const auto found = node.attributes.find(name);
  if (found == node.attributes.end()) return nullptr;
  return std::get_if<T>(&found->second);
}

}  // namespace

int64_t int_attribute(const ir::OnnxNodeAttrs& node, const std::string& name, int64_t fallback) {
  const int64_t* value = attribute_of<int64_t>(node, name);
  return value ? *value : fallback;
}

double float_attribute(const ir::OnnxNodeAttrs& node, const std::string& name, double fallback) {
  const double* value = attribute_of<double>(node, name);
  return value ? *value : fallback;
}

std::vector<int64_t> ints_attribute(const ir::OnnxNodeAttrs& node, const std::string& name,
                                    std::vector<int64_t> fallback) {
  const auto* value = attribute_of<std::vector<int64_t>>(node, name);
  return value ? *value : fallback;
}

std::string string_attribute(const ir::OnnxNodeAttrs& node, const std::string& name,
                             std::string fallback) {
  const std::string* value = attribute_of<std::string>(node, name);
  return value ? *value : fallback;
}

std::vector<std::optional<ir::NodeId>> onnx_operands(const ir::Graph& graph, ir::NodeId op_id) {
  const std::vector<ir::NodeId> present = graph.inputs_of(op_id);
  const ir::OnnxNodeAttrs* node = onnx_node(graph.op(op_id));
  std::vector<std::optional<ir::NodeId>> operands;
  std::size_t next = 0;
  const std::size_t total = present.size() + (node ? node->omitted_inputs.size() : 0);
  for (std::size_t position = 0; position < total; ++position) {
    const bool omitted =
        node && std::find(node->omitted_inputs.begin(), node->omitted_inputs.end(),
                          static_cast<int64_t>(position)) != node->omitted_inputs.end();
    operands.push_back(omitted ? std::nullopt : std::optional<ir::NodeId>(present[next++]));
  }
  return operands;
}

void node_error(const ir::Op& op, const std::string& message) {
  SourceLocation where = op.where;
  if (where.file.empty() && where.key_path.empty()) {
    const ir::OnnxNodeAttrs* node = onnx_node(op);
    where.key_path = "'" + op.name + "' (" + (node ? node->op_type : ir::op_type_name(op)) + ")";
  }
  throw_bad_input(where, message);
}

int64_t normalized_axis(const ir::Op& op, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    node_error(
        op, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

}  // namespace polyarch::passes
