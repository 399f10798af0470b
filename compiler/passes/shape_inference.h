#pragma once
// ONNX shape inference: every imported node's result shapes and element types from its
// operands, checked against what the model declared (value_info, graph outputs).
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Infers one op's results and writes them into its result tensors. Returns whether every
// result's shape is known afterwards (false while an operand or a shape operand's value is
// unknown). A result whose model-declared shape disagrees is a bad-input error naming the node.
// Canonical ops are left as they are.
bool infer_op_results(ir::Graph& graph, ir::NodeId op_id);

// Counters: "inferred" results whose shape this pass found, "checked" results whose declared
// shape it confirmed. Any result still unknown afterwards is an error naming its node.
class ShapeInferencePass : public Pass {
 public:
  std::string_view name() const override { return "infer-shapes"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
