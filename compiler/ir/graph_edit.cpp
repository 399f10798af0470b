#include "compiler/ir/graph_edit.h"

namespace polyarch::ir {

GraphEdit::GraphEdit(const Graph& graph)
    : graph_(graph), erased_(graph.node_count(), false), inputs_(graph.node_count()) {}

void GraphEdit::erase_op(NodeId op_id) {
  graph_.op(op_id);  // throws for a node that is not an op
  erased_[op_id] = true;
}

void GraphEdit::erase_tensor(NodeId tensor_id) {
  graph_.tensor(tensor_id);
  erased_[tensor_id] = true;
}

void GraphEdit::set_inputs(NodeId op_id, std::vector<NodeId> inputs) {
  graph_.op(op_id);
  for (NodeId input : inputs) graph_.tensor(input);
  inputs_[op_id] = std::move(inputs);
}

std::size_t GraphEdit::erased_op_count() const {
  std::size_t count = 0;
  for (NodeId id = 0; id < graph_.node_count(); ++id) {
    count += erased_[id] && graph_.is_op(id) ? 1 : 0;
  }
  return count;
}

GraphEdit::Result GraphEdit::apply() const {
  Result result{Graph(graph_.name()), std::vector<std::optional<NodeId>>(graph_.node_count())};
  if (!graph_.functional_available()) {
    result.graph.mark_functional_unavailable(graph_.functional_unavailable_reason());
  }
  for (NodeId id = 0; id < graph_.node_count(); ++id) {
    if (erased_[id]) continue;
    result.new_id[id] = graph_.is_op(id) ? result.graph.add_op(graph_.op(id))
                                         : result.graph.add_tensor(graph_.tensor(id));
  }
  const auto mapped = [&](NodeId old_id, NodeId op_id) {
    if (!result.new_id[old_id]) {
      // A pass erased a tensor that a surviving op still uses: a compiler bug.
      throw_runtime({}, "graph edit: op '" + graph_.op(op_id).name +
                            "' still uses erased tensor '" + graph_.tensor(old_id).name + "'");
    }
    return *result.new_id[old_id];
  };
  // Operands and results op by op, in their original order, so each op's edge order survives.
  for (NodeId id = 0; id < graph_.node_count(); ++id) {
    if (erased_[id] || !graph_.is_op(id)) continue;
    const std::vector<NodeId> inputs = inputs_[id] ? *inputs_[id] : graph_.inputs_of(id);
    for (NodeId input : inputs) result.graph.connect(mapped(input, id), *result.new_id[id]);
    for (NodeId output : graph_.outputs_of(id)) {
      result.graph.connect(*result.new_id[id], mapped(output, id));
    }
  }
  return result;
}

std::optional<NodeId> find_tensor(const Graph& graph, const std::string& name) {
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (!graph.is_op(id) && graph.tensor(id).name == name) return id;
  }
  return std::nullopt;
}

std::optional<NodeId> producer_of(const Graph& graph, NodeId tensor_id) {
  const auto [edge, end] = boost::in_edges(tensor_id, graph.storage());
  if (edge == end) return std::nullopt;
  return boost::source(*edge, graph.storage());
}

std::vector<NodeId> consumers_of(const Graph& graph, NodeId tensor_id) {
  std::vector<NodeId> consumers;
  for (auto [edge, end] = boost::out_edges(tensor_id, graph.storage()); edge != end; ++edge) {
    consumers.push_back(boost::target(*edge, graph.storage()));
  }
  return consumers;
}

}  // namespace polyarch::ir
