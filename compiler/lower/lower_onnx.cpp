#include "compiler/lower/lower_onnx.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/graph_edit.h"
#include "compiler/lower/allow_unknown.h"
#include "compiler/lower/lower_context.h"
#include "compiler/lower/recurrent_expansion.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/onnx_shape_rules.h"
#include "compiler/passes/tensor_values.h"
#include "compiler/passes/unknown_ops.h"

namespace polyarch::lower {

Lowered lower_onnx_node(const LowerContext& context) {
  if (context.node().domain == passes::kUnknownOpDomain) return lower_unknown_op(context);
  if (!context.node().domain.empty()) {
    context.fail("from domain '" + context.node().domain + "' has no lowering");
  }
  if (LowerRule rule = compute_lower_rule(context.op_type())) return rule(context);
  if (LowerRule rule = data_lower_rule(context.op_type())) return rule(context);
  if (LowerRule rule = products_lower_rule(context.op_type())) return rule(context);
  // Shape inference accepted the node, so the remaining supported types are elementwise.
  if (passes::elementwise_shape_rule(context.op_type()) != nullptr) {
    return lower_elementwise(context);
  }
  context.fail("has no lowering");
}

namespace {

// Integer operands the canonical op no longer reads whose values its semantics need, by ONNX
// position, and the attribute names earlier opsets gave them: a Slice's bounds, a reduction's
// axes (operands since opsets 10 and 18; constants after folding).
const std::map<std::string, std::vector<std::string>>& constant_operand_attributes() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"Slice", {"", "starts", "ends", "axes", "steps"}},
      {"ReduceMean", {"", "axes"}},
      {"ReduceSum", {"", "axes"}},
      {"ReduceMax", {"", "axes"}},
      {"ReduceMin", {"", "axes"}},
      {"ReduceProd", {"", "axes"}},
      {"ReduceL1", {"", "axes"}},
      {"ReduceL2", {"", "axes"}},
      {"ReduceSumSquare", {"", "axes"}},
      {"ReduceLogSum", {"", "axes"}},
      {"ReduceLogSumExp", {"", "axes"}},
  };
  return table;
}

}  // namespace

std::shared_ptr<const ir::OnnxNodeAttrs> lowered_from(const LowerContext& context) {
  auto node = std::make_shared<ir::OnnxNodeAttrs>(context.node());
  const auto found = constant_operand_attributes().find(context.op_type());
  if (found == constant_operand_attributes().end()) return node;
  const std::vector<std::string>& names = found->second;
  for (std::size_t i = 1; i < names.size() && i < context.operand_slots(); ++i) {
    if (!context.has(i)) continue;
    const std::optional<passes::Values> values = passes::read_values(context.operand(i));
    if (values && !values->is_float()) node->attributes[names[i]] = values->ints;
  }
  return node;
}

passes::PassStatistics LoweringPass::run(ir::Graph& graph) {
  // A recurrent layer is its time steps' primitives, each lowered on its own below.
  expand_recurrent_nodes(graph);
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
    Lowered lowered = lower_onnx_node(context);
    if (!lowered.attrs) {
      edit.erase_op(op_id);
      statistics.add("erased");
      continue;
    }
    ir::Op canonical;
    canonical.name = op.name;
    canonical.where = op.where;
    canonical.attrs = std::move(*lowered.attrs);
    canonical.lowered_from = lowered_from(context);
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
