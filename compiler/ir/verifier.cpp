#include "compiler/ir/verifier.h"

#include <map>

namespace polyarch::ir {

namespace {

// Names must be unique: passes, dumps and the text IR find ops and tensors by name.
void check_unique_names(const Graph& graph, std::vector<std::string>& problems) {
  std::map<std::string, int> op_names;
  std::map<std::string, int> tensor_names;
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id)) {
      if (++op_names[graph.op(id).name] == 2) {
        problems.push_back("op name '" + graph.op(id).name + "' is used twice");
      }
    } else if (++tensor_names[graph.tensor(id).name] == 2) {
      problems.push_back("tensor name '" + graph.tensor(id).name + "' is used twice");
    }
  }
}

// SSA: a tensor has at most one producer, and an op's operands and results are tensors.
void check_edges(const Graph& graph, std::vector<std::string>& problems) {
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id)) continue;
    const std::vector<NodeId> producers = [&] {
      std::vector<NodeId> found;
      for (auto [edge, end] = boost::in_edges(id, graph.storage()); edge != end; ++edge) {
        found.push_back(boost::source(*edge, graph.storage()));
      }
      return found;
    }();
    if (producers.size() > 1) {
      problems.push_back("tensor '" + graph.tensor(id).name + "' is written by " +
                         std::to_string(producers.size()) + " ops ('" +
                         graph.op(producers[0]).name + "', '" + graph.op(producers[1]).name + "')");
    }
  }
}

void check_ops(const Graph& graph, std::vector<std::string>& problems) {
  std::vector<NodeId> ops;
  try {
    ops = graph.topological_ops();
  } catch (const Error& error) {
    problems.push_back(error.message());
    return;
  }
  for (NodeId id : ops) {
    const Op& op = graph.op(id);
    if (graph.outputs_of(id).empty()) problems.push_back("op '" + op.name + "' has no result");
    if (op.kind() == OpKind::kFrontend) continue;
    try {
      validate_op(op);
    } catch (const Error& error) {
      problems.push_back(error.message());
    }
  }
}

}  // namespace

std::vector<std::string> verify_graph(const Graph& graph) {
  std::vector<std::string> problems;
  check_unique_names(graph, problems);
  check_edges(graph, problems);
  check_ops(graph, problems);
  return problems;
}

}  // namespace polyarch::ir
