#pragma once
// Structural edits of a graph: removing ops and tensors and changing an op's operands. The
// graph stores nodes in a vector, so removal rebuilds it; GraphEdit collects the edits and
// builds the new graph once, keeping every surviving node's relative order (and so the
// deterministic topological order and the operand order of every op).
#include <optional>
#include <variant>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::ir {

// What replaces one op: new tensors and a chain of new ops, placed where the op was. An operand
// is a tensor of the edited graph (its NodeId) or one of `tensors` (its index there).
struct OpExpansion {
  struct NewTensor {
    std::size_t index;
  };
  using Operand = std::variant<NodeId, NewTensor>;
  struct Step {
    Op op;
    std::vector<Operand> inputs;
    std::vector<Operand> outputs;
  };
  std::vector<Tensor> tensors;
  std::vector<Step> steps;
};

class GraphEdit {
 public:
  explicit GraphEdit(const Graph& graph);

  // Drops the op and its edges; its output tensors stay (a folded value keeps its tensor).
  void erase_op(NodeId op_id);
  // Drops a tensor; no surviving op may read or write it.
  void erase_tensor(NodeId tensor_id);
  // Replaces the op's operands, in order (tensors of the same graph).
  void set_inputs(NodeId op_id, std::vector<NodeId> inputs);
  // Replaces the op by the expansion's tensors and ops (the op's own edges go with it).
  void expand_op(NodeId op_id, OpExpansion expansion);

  bool erased(NodeId id) const { return erased_[id]; }
  std::size_t erased_op_count() const;

  // The edited graph, and for each old node id its new id (nullopt for erased nodes; an
  // expanded op maps to the first op of its expansion).
  struct Result {
    Graph graph;
    std::vector<std::optional<NodeId>> new_id;
  };
  Result apply() const;

 private:
  const Graph& graph_;
  std::vector<bool> erased_;
  std::vector<std::optional<std::vector<NodeId>>> inputs_;
  std::vector<std::optional<OpExpansion>> expansions_;
};

// Name -> id of every tensor (the first with that name), for passes that look tensors up.
std::optional<NodeId> find_tensor(const Graph& graph, const std::string& name);

// The op that writes the tensor, if any.
std::optional<NodeId> producer_of(const Graph& graph, NodeId tensor_id);
// The ops that read the tensor, in edge order.
std::vector<NodeId> consumers_of(const Graph& graph, NodeId tensor_id);

}  // namespace polyarch::ir
