#include "compiler/frontend/layer_graph.h"

#include <variant>

namespace polyarch::frontend {

namespace {

struct OperandShapes {
  std::vector<int64_t> input;
  std::vector<int64_t> weight;
};

OperandShapes operand_shapes(const ir::OpAttrs& attrs) {
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&attrs)) {
    // A batched GEMM in a layer list (attention's QK^T, PV) has a B operand per batch entry.
    std::vector<int64_t> weight = {gemm->k, gemm->n};
    if (gemm->batch > 1) weight.insert(weight.begin(), gemm->batch);
    return {{gemm->batch, gemm->m, gemm->k}, weight};
  }
  const auto& conv = std::get<ir::Conv2dAttrs>(attrs);
  return {{conv.n, conv.c, conv.h, conv.w}, {conv.k, conv.c / conv.groups, conv.r, conv.s}};
}

}  // namespace

ir::NodeId add_standalone_layer(ir::Graph& graph, ir::Op op) {
  ir::validate_op(op);
  const OperandShapes shapes = operand_shapes(op.attrs);
  // Tensors need some element type; the op's own decides when given, else int8 as a
  // placeholder until a unit is chosen (the op's nullopt dtype is what mappers look at).
  const ir::DType dtype = op.dtype.value_or(ir::DType::kInt8);
  const std::string name = op.name;
  const ir::NodeId input =
      graph.add_tensor({name + ".in", shapes.input, dtype, ir::TensorRole::kActivation});
  const ir::NodeId weight =
      graph.add_tensor({name + ".w", shapes.weight, dtype, ir::TensorRole::kWeight});
  const ir::NodeId op_id = graph.add_op(std::move(op));
  const ir::NodeId output = graph.add_tensor({name + ".out", {}, dtype, ir::TensorRole::kOutput});
  graph.connect(input, op_id);
  graph.connect(weight, op_id);
  graph.connect(op_id, output);
  return op_id;
}

}  // namespace polyarch::frontend
