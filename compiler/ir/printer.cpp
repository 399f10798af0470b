// print_graph: the stable text form golden tests and `polyarch compile --dump-ir` show.
#include <variant>

#include "compiler/ir/graph.h"
#include "compiler/ir/op_text.h"
#include "compiler/ir/shape_text.h"

namespace polyarch::ir {

namespace {

// "[?]" for a shape nobody has inferred yet, so it does not read as a scalar's "[]".
std::string tensor_shape_text(const Tensor& tensor) {
  return tensor.shape_known() ? shape_text(tensor.shape) : "[?]";
}

}  // namespace

std::string print_graph(const Graph& graph) {
  std::string text;
  for (NodeId op_id : graph.topological_ops()) {
    const Op& op = graph.op(op_id);
    std::string operands;
    for (NodeId input : graph.inputs_of(op_id)) {
      const Tensor& tensor = graph.tensor(input);
      operands += (operands.empty() ? "%" : ", %") + tensor.name + tensor_shape_text(tensor);
    }
    // Canonical ops have one anonymous result; an imported node's results are named because
    // later nodes refer to them by name.
    const bool named_results = op.kind() == OpKind::kFrontend;
    std::string results;
    for (NodeId output : graph.outputs_of(op_id)) {
      const Tensor& tensor = graph.tensor(output);
      results += (results.empty() ? "" : ", ") + (named_results ? "%" + tensor.name : "") +
                 tensor_shape_text(tensor);
    }
    // An op without a dtype runs in whatever its unit computes natively.
    const std::string dtype = op.dtype ? std::string(dtype_name(*op.dtype)) : "native";
    const std::string attributes = op_attributes_text(op.attrs);
    text += "%" + op.name + " = " + op_type_name(op) + "(" + operands + ") " + attributes +
            (attributes.empty() ? "" : " ") + "-> " + results + " " + dtype + "\n";
  }
  return text;
}

}  // namespace polyarch::ir
