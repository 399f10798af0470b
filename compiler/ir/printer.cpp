// print_graph: the stable text form golden tests and `polyarch compile --dump-ir` show.
#include <cstdio>
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

// What the layout and sparsity passes decided, when they did: " layout=nhwc sparsity=2:4
// density=0.5".
std::string placement_text(const Op& op) {
  std::string text;
  if (op.layout) text += " layout=" + std::string(layout_name(*op.layout));
  if (op.weight_sparsity) {
    const WeightSparsity& sparsity = *op.weight_sparsity;
    if (sparsity.structured()) {
      text += " sparsity=" + std::to_string(sparsity.n) + ":" + std::to_string(sparsity.m);
    }
    char density[32];
    std::snprintf(density, sizeof(density), " density=%.3g", sparsity.density);
    text += density;
  }
  return text;
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
            (attributes.empty() ? "" : " ") + "-> " + results + " " + dtype +
            placement_text(op) + "\n";
  }
  return text;
}

}  // namespace polyarch::ir
