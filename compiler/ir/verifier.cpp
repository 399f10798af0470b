#include "compiler/ir/verifier.h"

#include <map>

#include "compiler/ir/operand_shapes.h"
#include "compiler/ir/shape_text.h"

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

int64_t volume(const Shape& shape) {
  int64_t elements = 1;
  for (int64_t extent : shape) elements *= extent;
  return elements;
}

// "op 'x': input 'a' has N elements ([..]), expected M ([..])" unless `tensor`'s shape is unknown
// or holds as many elements as one of `accepted`.
std::optional<std::string> volume_problem(const Op& op, const char* role, const Tensor& tensor,
                                          const std::vector<Shape>& accepted) {
  if (tensor.shape.empty()) return std::nullopt;
  for (const Shape& shape : accepted) {
    if (volume(tensor.shape) == volume(shape)) return std::nullopt;
  }
  return "op '" + op.name + "': " + role + " '" + tensor.name + "' has " +
         std::to_string(volume(tensor.shape)) + " elements (" + shape_text(tensor.shape) +
         "), its attributes say " + std::to_string(volume(accepted.front())) + " (" +
         shape_text(accepted.front()) + ")";
}

// A Gemm or Conv2d's operands and results hold as many elements as its attributes say. Not the
// exact shapes: an imported model keeps its own tensors (a transposed B, a 4-D batched MatMul),
// which the attributes describe in canonical order. A pass that rewrites attributes without the
// tensors (or the other way) is caught here.
void check_operand_volumes(const Graph& graph, NodeId id, std::vector<std::string>& problems) {
  const Op& op = graph.op(id);
  const std::optional<OperandShapes> expected = operand_shapes(op);
  if (!expected) return;
  const std::vector<NodeId> inputs = graph.inputs_of(id);
  for (std::size_t i = 0; i < inputs.size() && i < expected->inputs.size(); ++i) {
    if (auto problem = volume_problem(op, "input", graph.tensor(inputs[i]), expected->inputs[i])) {
      problems.push_back(*problem);
    }
  }
  for (NodeId output : graph.outputs_of(id)) {
    if (auto problem = volume_problem(op, "result", graph.tensor(output), {expected->output})) {
      problems.push_back(*problem);
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
      continue;  // shapes follow from attributes that are not valid
    }
    check_operand_volumes(graph, id, problems);
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
