#include "compiler/ir/graph.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace polyarch::ir {

NodeId Graph::add_op(Op op) { return boost::add_vertex(GraphNode(std::move(op)), storage_); }

NodeId Graph::add_tensor(Tensor tensor) {
  return boost::add_vertex(GraphNode(std::move(tensor)), storage_);
}

void Graph::mark_functional_unavailable(std::string reason) {
  // The first reason is the one to report; later ones are usually the same cause again.
  if (functional_unavailable_reason_.empty()) functional_unavailable_reason_ = std::move(reason);
}

void Graph::connect(NodeId from, NodeId to) {
  if (from >= node_count() || to >= node_count()) {
    throw_runtime({}, "graph '" + name_ + "': connect() with an unknown node id");
  }
  if (is_op(from) == is_op(to)) {
    throw_runtime({}, "graph '" + name_ + "': edges must run tensor->op or op->tensor");
  }
  boost::add_edge(from, to, storage_);
}

namespace {

// Every vertex still unsorted after Kahn's algorithm has an unsorted predecessor, so walking
// predecessors from any of them must revisit a vertex: that vertex lies on a cycle.
std::vector<NodeId> find_cycle(const GraphStorage& storage, const std::vector<int>& in_degree) {
  NodeId current = 0;
  while (in_degree[current] == 0) ++current;
  std::vector<int> step_of(boost::num_vertices(storage), -1);
  std::vector<NodeId> walk;
  while (step_of[current] < 0) {
    step_of[current] = static_cast<int>(walk.size());
    walk.push_back(current);
    for (auto [edge, end] = boost::in_edges(current, storage); edge != end; ++edge) {
      const NodeId predecessor = boost::source(*edge, storage);
      if (in_degree[predecessor] > 0) {
        current = predecessor;
        break;
      }
    }
  }
  return {walk.begin() + step_of[current], walk.end()};
}

}  // namespace

std::vector<NodeId> Graph::topological_ops() const {
  // Kahn's algorithm with a min-heap on vertex ids, so ties go to the earlier-inserted node and
  // the order never depends on hash or pointer values.
  const std::size_t count = node_count();
  std::vector<int> in_degree(count, 0);
  for (NodeId id = 0; id < count; ++id)
    in_degree[id] = static_cast<int>(boost::in_degree(id, storage_));
  std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
  for (NodeId id = 0; id < count; ++id) {
    if (in_degree[id] == 0) ready.push(id);
  }
  std::vector<NodeId> ops;
  std::size_t sorted = 0;
  while (!ready.empty()) {
    const NodeId id = ready.top();
    ready.pop();
    ++sorted;
    if (is_op(id)) ops.push_back(id);
    for (auto [edge, end] = boost::out_edges(id, storage_); edge != end; ++edge) {
      const NodeId next = boost::target(*edge, storage_);
      if (--in_degree[next] == 0) ready.push(next);
    }
  }
  if (sorted != count) {
    std::vector<NodeId> cycle = find_cycle(storage_, in_degree);
    const auto first_op = *std::min_element(cycle.begin(), cycle.end(), [&](NodeId a, NodeId b) {
      return std::make_pair(!is_op(a), a) < std::make_pair(!is_op(b), b);
    });
    const Op& culprit = op(first_op);
    throw_bad_input(culprit.where,
                    "graph '" + name_ + "' has a cycle through op '" + culprit.name + "'");
  }
  return ops;
}

const Op& Graph::op(NodeId id) const {
  if (id >= node_count() || !is_op(id)) throw_runtime({}, "graph node is not an op");
  return std::get<Op>(storage_[id]);
}

Op& Graph::op(NodeId id) {
  if (id >= node_count() || !is_op(id)) throw_runtime({}, "graph node is not an op");
  return std::get<Op>(storage_[id]);
}

const Tensor& Graph::tensor(NodeId id) const {
  if (id >= node_count() || is_op(id)) throw_runtime({}, "graph node is not a tensor");
  return std::get<Tensor>(storage_[id]);
}

Tensor& Graph::tensor(NodeId id) {
  if (id >= node_count() || is_op(id)) throw_runtime({}, "graph node is not a tensor");
  return std::get<Tensor>(storage_[id]);
}

bool Graph::is_op(NodeId id) const { return std::holds_alternative<Op>(storage_[id]); }

std::vector<NodeId> Graph::inputs_of(NodeId op_id) const {
  std::vector<NodeId> inputs;
  for (auto [edge, end] = boost::in_edges(op_id, storage_); edge != end; ++edge) {
    inputs.push_back(boost::source(*edge, storage_));
  }
  return inputs;
}

std::vector<NodeId> Graph::outputs_of(NodeId op_id) const {
  std::vector<NodeId> outputs;
  for (auto [edge, end] = boost::out_edges(op_id, storage_); edge != end; ++edge) {
    outputs.push_back(boost::target(*edge, storage_));
  }
  return outputs;
}

std::size_t Graph::op_count() const {
  std::size_t count = 0;
  for (NodeId id = 0; id < node_count(); ++id) count += is_op(id) ? 1 : 0;
  return count;
}

}  // namespace polyarch::ir
