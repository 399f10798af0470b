// infer_shapes: output shapes from op attributes, and a check that known input shapes agree.
#include <variant>

#include "compiler/ir/graph.h"
#include "compiler/ir/shape_text.h"

namespace polyarch::ir {

namespace {

using Shape = std::vector<int64_t>;

struct ExpectedShapes {
  std::vector<std::vector<Shape>> inputs;  // accepted shapes per input position
  Shape output;
};

ExpectedShapes expected_shapes(const Op& op) {
  if (const auto* gemm = std::get_if<GemmAttrs>(&op.attrs)) {
    // A single GEMM may also be written without its unit batch dimension; B may be shared
    // by the whole batch (a weight) or per batch (attention's K and V).
    std::vector<Shape> a_shapes = {{gemm->batch, gemm->m, gemm->k}};
    if (gemm->batch == 1) a_shapes.push_back({gemm->m, gemm->k});
    std::vector<Shape> b_shapes = {{gemm->k, gemm->n}, {gemm->batch, gemm->k, gemm->n}};
    return {{a_shapes, b_shapes}, {gemm->batch, gemm->m, gemm->n}};
  }
  const auto& conv = std::get<Conv2dAttrs>(op.attrs);
  return {{{{conv.n, conv.c, conv.h, conv.w}}, {{conv.k, conv.c / conv.groups, conv.r, conv.s}}},
          {conv.n, conv.k, conv.out_h(), conv.out_w()}};
}

void check_input(const Op& op, const Tensor& input, const std::vector<Shape>& accepted) {
  if (input.shape.empty()) return;  // not known yet: nothing to hold it to
  for (const Shape& shape : accepted) {
    if (input.shape == shape) return;
  }
  throw_bad_input(op.where, "op '" + op.name + "': input '" + input.name + "' has shape " +
                                shape_text(input.shape) + ", expected " +
                                shape_text(accepted.front()));
}

}  // namespace

void infer_shapes(Graph& graph) {
  for (NodeId op_id : graph.topological_ops()) {
    const Op& op = graph.op(op_id);
    validate_op(op);
    // Only Gemm and Conv2d fix their operand layouts; other kinds keep the shapes their
    // frontend gave (lowering keeps the ONNX tensors), and frontend ops have not been lowered.
    if (op.kind() != OpKind::kGemm && op.kind() != OpKind::kConv2d) continue;
    const ExpectedShapes expected = expected_shapes(op);
    const std::vector<NodeId> inputs = graph.inputs_of(op_id);
    for (std::size_t i = 0; i < inputs.size() && i < expected.inputs.size(); ++i) {
      check_input(op, graph.tensor(inputs[i]), expected.inputs[i]);
    }
    for (NodeId output : graph.outputs_of(op_id)) graph.tensor(output).shape = expected.output;
  }
}

}  // namespace polyarch::ir
