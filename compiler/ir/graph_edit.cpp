#include "compiler/ir/graph_edit.h"

namespace polyarch::ir {

GraphEdit::GraphEdit(const Graph& graph)
    : graph_(graph),
      erased_(graph.node_count(), false),
      inputs_(graph.node_count()),
      expansions_(graph.node_count()) {}

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

void GraphEdit::expand_op(NodeId op_id, OpExpansion expansion) {
  graph_.op(op_id);
  for (const OpExpansion::Step& step : expansion.steps) {
    for (const auto* operands : {&step.inputs, &step.outputs}) {
      for (const OpExpansion::Operand& operand : *operands) {
        if (const auto* old = std::get_if<NodeId>(&operand)) {
          graph_.tensor(*old);
        } else if (std::get<OpExpansion::NewTensor>(operand).index >= expansion.tensors.size()) {
          throw_runtime({}, "graph edit: the expansion of op '" + graph_.op(op_id).name +
                                "' names a tensor it does not add");
        }
      }
    }
  }
  expansions_[op_id] = std::move(expansion);
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
  // An expansion's nodes take the op's place, so the topological order keeps their position.
  std::vector<std::vector<NodeId>> expansion_tensors(graph_.node_count());
  std::vector<std::vector<NodeId>> expansion_ops(graph_.node_count());
  for (NodeId id = 0; id < graph_.node_count(); ++id) {
    if (erased_[id]) continue;
    if (const std::optional<OpExpansion>& expansion = expansions_[id]) {
      for (const Tensor& tensor : expansion->tensors) {
        expansion_tensors[id].push_back(result.graph.add_tensor(tensor));
      }
      for (const OpExpansion::Step& step : expansion->steps) {
        expansion_ops[id].push_back(result.graph.add_op(step.op));
      }
      if (!expansion_ops[id].empty()) result.new_id[id] = expansion_ops[id].front();
      continue;
    }
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
    if (const std::optional<OpExpansion>& expansion = expansions_[id]) {
      const auto operand_id = [&](const OpExpansion::Operand& operand) {
        if (const auto* old = std::get_if<NodeId>(&operand)) return mapped(*old, id);
        return expansion_tensors[id][std::get<OpExpansion::NewTensor>(operand).index];
      };
      for (std::size_t step = 0; step < expansion->steps.size(); ++step) {
        const NodeId op = expansion_ops[id][step];
        for (const auto& input : expansion->steps[step].inputs) {
          result.graph.connect(operand_id(input), op);
        }
        for (const auto& output : expansion->steps[step].outputs) {
          result.graph.connect(op, operand_id(output));
        }
      }
      continue;
    }
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
