#include "compiler/passes/fusion_match.h"

#include <algorithm>
#include <cmath>

#include "compiler/ir/graph_edit.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

ir::NodeId result_of(const ir::Graph& graph, ir::NodeId op) { return graph.outputs_of(op).front(); }

const ir::ElementwiseAttrs* elementwise_fn(const ir::Graph& graph, ir::NodeId op,
                                           std::string_view fn) {
  const auto* attrs = std::get_if<ir::ElementwiseAttrs>(&graph.op(op).attrs);
  return attrs != nullptr && attrs->fn == fn ? attrs : nullptr;
}

std::optional<ir::NodeId> produced_by(const ir::Graph& graph, ir::NodeId tensor,
                                      std::string_view fn) {
  const std::optional<ir::NodeId> op = ir::producer_of(graph, tensor);
  if (!op || elementwise_fn(graph, *op, fn) == nullptr) return std::nullopt;
  return op;
}

std::string source_type(const ir::Op& op) {
  return op.lowered_from == nullptr ? "" : op.lowered_from->op_type;
}

std::optional<double> scalar_value(const ir::Graph& graph, ir::NodeId tensor) {
  const ir::Tensor& constant = graph.tensor(tensor);
  if (!constant.has_data() || ir::element_count(constant.shape) != 1) return std::nullopt;
  const std::optional<Values> values = read_values(constant);
  if (!values || values->size() != 1) return std::nullopt;
  return values->real(0);
}

bool near(double value, double expected, double relative) {
  return std::fabs(value - expected) <= relative * std::max(std::fabs(expected), 1e-30);
}

std::optional<ir::NodeId> other_operand(const ir::Graph& graph, ir::NodeId op, ir::NodeId known) {
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op);
  if (inputs.size() != 2) return std::nullopt;
  if (inputs[0] == known) return inputs[1];
  if (inputs[1] == known) return inputs[0];
  return std::nullopt;
}

std::optional<ConstantOperand> with_constant(const ir::Graph& graph, ir::NodeId op,
                                             std::string_view fn,
                                             std::optional<bool> constant_first) {
  if (elementwise_fn(graph, op, fn) == nullptr) return std::nullopt;
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op);
  if (inputs.size() != 2) return std::nullopt;
  for (std::size_t constant_at : {std::size_t{1}, std::size_t{0}}) {
    if (constant_first && *constant_first != (constant_at == 0)) continue;
    const std::optional<double> value = scalar_value(graph, inputs[constant_at]);
    if (value) return ConstantOperand{inputs[1 - constant_at], *value};
  }
  return std::nullopt;
}

std::optional<ir::NodeId> only_consumer(const ir::Graph& graph, ir::NodeId tensor) {
  const std::vector<ir::NodeId> readers = ir::consumers_of(graph, tensor);
  if (graph.tensor(tensor).role == ir::TensorRole::kOutput || readers.empty()) return std::nullopt;
  for (ir::NodeId reader : readers) {
    if (reader != readers.front()) return std::nullopt;
  }
  return readers.front();
}

bool internal_to(const ir::Graph& graph, ir::NodeId tensor, const std::set<ir::NodeId>& ops) {
  if (graph.tensor(tensor).role == ir::TensorRole::kOutput) return false;
  for (ir::NodeId reader : ir::consumers_of(graph, tensor)) {
    if (ops.count(reader) == 0) return false;
  }
  return true;
}

bool FusionRewrite::claim(const std::vector<ir::NodeId>& ops) {
  for (ir::NodeId op : ops) {
    if (claimed_.count(op) > 0) return false;
  }
  claimed_.insert(ops.begin(), ops.end());
  return true;
}

bool FusionRewrite::self_contained(const std::vector<ir::NodeId>& ops, ir::NodeId root) const {
  const std::set<ir::NodeId> members(ops.begin(), ops.end());
  for (ir::NodeId op : ops) {
    if (op == root) continue;
    for (ir::NodeId result : graph_.outputs_of(op)) {
      if (!internal_to(graph_, result, members)) return false;
    }
  }
  return true;
}

void FusionRewrite::replace(const std::vector<ir::NodeId>& ops, ir::NodeId root, ir::Op fused,
                            std::vector<ir::NodeId> inputs) {
  replacements_.push_back({ops, root, std::move(fused), std::move(inputs)});
}

int64_t FusionRewrite::apply() {
  if (replacements_.empty()) return 0;
  ir::GraphEdit edit(graph_);
  int64_t erased = 0;
  for (Replacement& replacement : replacements_) {
    for (ir::NodeId op : replacement.ops) {
      if (op == replacement.root) continue;
      edit.erase_op(op);
      // Its results were read inside the pattern only; left behind they would read as inputs.
      for (ir::NodeId result : graph_.outputs_of(op)) edit.erase_tensor(result);
      ++erased;
    }
    edit.set_inputs(replacement.root, replacement.inputs);
  }
  for (Replacement& replacement : replacements_) {
    graph_.op(replacement.root) = std::move(replacement.fused);
  }
  replacements_.clear();
  claimed_.clear();
  graph_ = edit.apply().graph;
  // The erased ops' results and the constants only they read (0.5, sqrt 2, epsilon).
  DeadCodeEliminationPass().run(graph_);
  return erased;
}

ir::Op fused_op(const ir::Op& root, ir::OpAttrs attrs, const std::string& node_type,
                std::map<std::string, ir::AttributeValue> attributes) {
  ir::Op fused;
  fused.name = root.name;
  fused.where = root.where;
  fused.dtype = root.dtype;
  fused.attrs = std::move(attrs);
  auto node = std::make_shared<ir::OnnxNodeAttrs>();
  node->op_type = node_type;
  node->attributes = std::move(attributes);
  if (root.lowered_from != nullptr) node->opset = root.lowered_from->opset;
  fused.lowered_from = std::move(node);
  return fused;
}

}  // namespace polyarch::passes
