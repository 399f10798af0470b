#include "compiler/passes/constant_folding.h"

#include "compiler/ir/graph_edit.h"
#include "compiler/passes/constant_eval.h"
#include "compiler/passes/shape_inference.h"
#include "compiler/passes/unknown_ops.h"

namespace polyarch::passes {

namespace {

bool is_parameter(const ir::Tensor& tensor) {
  return tensor.role == ir::TensorRole::kWeight && is_float_dtype(tensor.dtype);
}

// Operand values for evaluation, or nullopt when some operand is not a foldable constant.
std::optional<std::vector<std::optional<Values>>> constant_operands(const ir::Graph& graph,
                                                                    ir::NodeId op_id,
                                                                    const std::string& op_type) {
  std::vector<std::optional<Values>> values;
  for (const auto& operand : onnx_operands(graph, op_id)) {
    if (!operand) {
      values.emplace_back();
      continue;
    }
    const ir::Tensor& tensor = graph.tensor(*operand);
    // Shape and Size read only the operand's shape, never its contents.
    if (op_type == "Shape" || op_type == "Size") {
      if (!tensor.shape_known()) return std::nullopt;
      values.emplace_back();
      continue;
    }
    if (is_parameter(tensor)) return std::nullopt;
    std::optional<Values> read = read_values(tensor);
    if (!read) return std::nullopt;
    values.push_back(std::move(read));
  }
  return values;
}

bool results_small_and_known(const ir::Graph& graph, ir::NodeId op_id,
                             std::vector<TypedShape>& types) {
  for (ir::NodeId result : graph.outputs_of(op_id)) {
    const ir::Tensor& tensor = graph.tensor(result);
    if (!tensor.shape_known()) return false;
    if (ir::element_count(tensor.shape) > ConstantFoldingPass::kMaxFoldedElements) return false;
    types.push_back({tensor.shape, tensor.dtype});
  }
  return true;
}

// Tries to replace the op by its values; returns the counter to bump, or nullptr.
const char* fold(ir::Graph& graph, ir::NodeId op_id) {
  const ir::Op& op = graph.op(op_id);
  const ir::OnnxNodeAttrs* node = onnx_node(op);
  const std::vector<ir::NodeId> results = graph.outputs_of(op_id);
  if (node->op_type == "Constant") {
    for (ir::NodeId result : results) {
      if (!graph.tensor(result).has_data()) return nullptr;  // a string or sparse constant
    }
    return "constants";
  }
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
  if (node->op_type == "Identity" && inputs.size() == 1 && results.size() == 1 &&
      graph.tensor(inputs[0]).role == ir::TensorRole::kWeight) {
    ir::Tensor& alias = graph.tensor(results[0]);
    const std::string name = alias.name;
    alias = graph.tensor(inputs[0]);
    alias.name = name;
    return "forwarded";
  }
  if (!is_evaluable(node->op_type)) return nullptr;
  auto operands = constant_operands(graph, op_id, node->op_type);
  std::vector<TypedShape> types;
  if (!operands || !results_small_and_known(graph, op_id, types)) return nullptr;
  std::vector<const ir::Tensor*> operand_tensors;
  for (const auto& operand : onnx_operands(graph, op_id)) {
    operand_tensors.push_back(operand ? &graph.tensor(*operand) : nullptr);
  }
  const ShapeContext context(op, *node, std::move(operand_tensors), results.size());
  const std::optional<std::vector<Values>> values = evaluate_onnx_node(context, *operands, types);
  if (!values) return nullptr;
  for (std::size_t i = 0; i < results.size(); ++i)
    store_values((*values)[i], graph.tensor(results[i]));
  return "folded";
}

}  // namespace

PassStatistics ConstantFoldingPass::run(ir::Graph& graph) {
  require_supported_onnx_nodes(graph);  // every unsupported node at once, not the first
  PassStatistics statistics;
  for (const char* counter : {"folded", "forwarded", "constants"}) statistics.add(counter, 0);
  std::vector<ir::NodeId> folded;
  for (ir::NodeId op_id : graph.topological_ops()) {
    if (onnx_node(graph.op(op_id)) == nullptr) continue;
    infer_op_results(graph, op_id);
    if (const char* counter = fold(graph, op_id)) {
      statistics.add(counter);
      folded.push_back(op_id);
    }
  }
  if (folded.empty()) return statistics;
  ir::GraphEdit edit(graph);
  for (ir::NodeId op_id : folded) edit.erase_op(op_id);
  graph = edit.apply().graph;
  return statistics;
}

}  // namespace polyarch::passes
