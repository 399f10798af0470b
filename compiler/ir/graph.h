#pragma once
// The graph IR: a Boost.Graph bidirectional graph whose vertices are ops and tensors, and whose
// edges run tensor -> op (an input) and op -> tensor (an output). Layer lists produce a graph
// whose ops each read their own input and weight tensors; model frontends connect them.
#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/op.h"
#include "compiler/ir/tensor.h"

namespace polyarch::ir {

using GraphNode = std::variant<Op, Tensor>;
using GraphStorage =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, GraphNode>;
using NodeId = GraphStorage::vertex_descriptor;

class Graph {
 public:
  explicit Graph(std::string name = "") : name_(std::move(name)) {}

  const std::string& name() const { return name_; }

  NodeId add_op(Op op);
  NodeId add_tensor(Tensor tensor);
  void connect(NodeId from, NodeId to);  // tensor->op or op->tensor; anything else throws

  // Ops in a deterministic topological order (ties broken by insertion order). A cycle is a
  // bad-input error naming an op on it.
  std::vector<NodeId> topological_ops() const;

  const Op& op(NodeId id) const;
  Op& op(NodeId id);  // passes rewrite an op in place when its operands stay the same
  const Tensor& tensor(NodeId id) const;
  Tensor& tensor(NodeId id);
  bool is_op(NodeId id) const;
  std::vector<NodeId> inputs_of(NodeId op_id) const;   // tensors
  std::vector<NodeId> outputs_of(NodeId op_id) const;  // tensors
  std::size_t node_count() const { return boost::num_vertices(storage_); }
  std::size_t op_count() const;

  const GraphStorage& storage() const { return storage_; }

  // Whether the graph can be executed numerically. A model imported without its weights (an
  // absent external-data file) still has every shape, so it can be timed but not computed.
  bool functional_available() const { return functional_unavailable_reason_.empty(); }
  const std::string& functional_unavailable_reason() const {
    return functional_unavailable_reason_;
  }
  void mark_functional_unavailable(std::string reason);

 private:
  std::string name_;
  GraphStorage storage_;
  std::string functional_unavailable_reason_;
};

// Sets every op output tensor's shape from its op's attributes and checks input shapes agree
// (errors name the op and its workload location). Frontend ops keep the shapes their model
// declared; the compiler's shape-inference pass fills the rest.
void infer_shapes(Graph& graph);

// A readable, stable text dump: one line per op in topological order, e.g.
//   %conv1 = conv2d(%conv1.in[1,3,224,224], %conv1.w[64,3,7,7]) stride=2x2 pad=3x3 groups=1 ->
//   [1,64,112,112] int8
std::string print_graph(const Graph& graph);

}  // namespace polyarch::ir
