#include "compiler/passes/shape_inference.h"

#include "compiler/passes/onnx_shape_rules.h"
#include "compiler/passes/unknown_ops.h"

namespace polyarch::passes {

namespace {

struct InferenceOutcome {
  bool all_known = true;
  int64_t inferred = 0;
  int64_t checked = 0;
};

InferenceOutcome infer(ir::Graph& graph, ir::NodeId op_id) {
  InferenceOutcome outcome;
  const ir::Op& op = graph.op(op_id);
  const ir::OnnxNodeAttrs* node = onnx_node(op);
  const std::vector<ir::NodeId> results = graph.outputs_of(op_id);
  if (node == nullptr) return outcome;
  std::vector<const ir::Tensor*> operands;
  for (const auto& operand : onnx_operands(graph, op_id)) {
    operands.push_back(operand ? &graph.tensor(*operand) : nullptr);
  }
  const ShapeContext context(op, *node, std::move(operands), results.size());
  const InferredResults inferred = infer_onnx_node(context);
  for (std::size_t i = 0; i < results.size(); ++i) {
    ir::Tensor& result = graph.tensor(results[i]);
    if (!inferred || i >= inferred->size()) {
      outcome.all_known = outcome.all_known && result.shape_known();
      continue;
    }
    const TypedShape& typed = (*inferred)[i];
    if (result.shape_known()) {
      if (result.shape != typed.shape) {
        node_error(op, node->op_type + " result '" + result.name + "' is declared " +
                           shape_string(result.shape) + " but its operands make it " +
                           shape_string(typed.shape));
      }
      ++outcome.checked;
    } else {
      result.shape = typed.shape;
      result.scalar = typed.shape.empty();
      ++outcome.inferred;
    }
    if (!result.dtype_known) {
      result.dtype = typed.dtype;
      result.dtype_known = true;
    }
  }
  return outcome;
}

}  // namespace

bool infer_op_results(ir::Graph& graph, ir::NodeId op_id) { return infer(graph, op_id).all_known; }

PassStatistics ShapeInferencePass::run(ir::Graph& graph) {
  require_supported_onnx_nodes(graph);  // every unsupported node at once, not the first
  PassStatistics statistics;
  statistics.add("inferred", 0);
  statistics.add("checked", 0);
  for (ir::NodeId op_id : graph.topological_ops()) {
    const InferenceOutcome outcome = infer(graph, op_id);
    statistics.add("inferred", outcome.inferred);
    statistics.add("checked", outcome.checked);
    if (outcome.all_known) continue;
    const ir::Op& op = graph.op(op_id);
    for (ir::NodeId result : graph.outputs_of(op_id)) {
      if (graph.tensor(result).shape_known()) continue;
      node_error(op, onnx_node(op)->op_type + " result '" + graph.tensor(result).name +
                         "' has no known shape: an operand's shape, or the value of a shape "
                         "operand, is not known (constant folding could not compute it)");
    }
  }
  return statistics;
}

}  // namespace polyarch::passes
