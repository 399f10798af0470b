// infer_shapes: output shapes from op attributes, and a check that known input shapes agree.
#include "compiler/ir/graph.h"
#include "compiler/ir/operand_shapes.h"

namespace polyarch::ir {

void infer_shapes(Graph& graph) {
  for (NodeId op_id : graph.topological_ops()) {
    const Op& op = graph.op(op_id);
    validate_op(op);
    // Only Gemm and Conv2d fix their operand layouts; other kinds keep the shapes their
    // frontend gave (lowering keeps the ONNX tensors), and frontend ops have not been lowered.
    const std::optional<OperandShapes> expected = operand_shapes(op);
    if (!expected) continue;
    const std::vector<NodeId> inputs = graph.inputs_of(op_id);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (auto problem = operand_shape_problem(op, *expected, i, graph.tensor(inputs[i]))) {
        throw_bad_input(op.where, *problem);
      }
    }
    for (NodeId output : graph.outputs_of(op_id)) graph.tensor(output).shape = expected->output;
  }
}

}  // namespace polyarch::ir
