#include "compiler/lower/lower_onnx.h"

#include "compiler/ir/graph_edit.h"
#include "compiler/lower/lower_context.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::lower {

namespace {

Lowered lower_node(const LowerContext& context) {
  if (!context.node().domain.empty()) {
    context.fail("from domain '" + context.node().domain + "' has no lowering");
  }
  if (LowerRule rule = compute_lower_rule(context.op_type())) return rule(context);
  if (LowerRule rule = data_lower_rule(context.op_type())) return rule(context);
  // Shape inference accepted the node, so the remaining supported types are elementwise.
  if (passes::elementwise_shape_rule(context.op_type()) != nullptr) {
    return lower_elementwise(context);
  }
  context.fail("has no lowering");
}

}  // namespace

passes::PassStatistics LoweringPass::run(ir::Graph& graph) {
  passes::PassStatistics statistics;
  statistics.add("lowered", 0);
  statistics.add("erased", 0);
  ir::GraphEdit edit(graph);
  std::vector<std::pair<ir::NodeId, ir::Op>> rewritten;
  for (ir::NodeId op_id : graph.topological_ops()) {
    const ir::Op& op = graph.op(op_id);
    if (passes::onnx_node(op) == nullptr) continue;
    for (ir::NodeId result : graph.outputs_of(op_id)) {
      if (!graph.tensor(result).shape_known()) {
        passes::node_error(op, "result '" + graph.tensor(result).name +
                                   "' has no shape: lowering needs shape inference first");
      }
    }
    const LowerContext context(graph, op_id);
    Lowered lowered = lower_node(context);
    if (!lowered.attrs) {
      edit.erase_op(op_id);
      statistics.add("erased");
      continue;
    }
    ir::Op canonical;
    canonical.name = op.name;
    canonical.where = op.where;
    canonical.attrs = std::move(*lowered.attrs);
    edit.set_inputs(op_id, lowered.inputs);
    // The op computes in its first operand's type (the activation), or its result's.
    canonical.dtype = graph
                          .tensor(lowered.inputs.empty() ? graph.outputs_of(op_id).front()
                                                         : lowered.inputs.front())
                          .dtype;
    ir::validate_op(canonical);
    rewritten.emplace_back(op_id, std::move(canonical));
    statistics.add("lowered");
  }
  for (auto& [op_id, canonical] : rewritten) graph.op(op_id) = std::move(canonical);
  graph = edit.apply().graph;
  // Operands only the imported nodes read (Reshape targets, Unsqueeze axes) are left unread.
  const passes::PassStatistics cleanup = passes::DeadCodeEliminationPass().run(graph);
  statistics.add("tensors erased", cleanup.get("tensors erased"));
  return statistics;
}

}  // namespace polyarch::lower
