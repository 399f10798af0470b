#include "compiler/passes/qdq_weights.h"

#include "compiler/ir/graph_edit.h"
#include "compiler/ir/weight_sparsity.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::passes {

namespace {

bool is_layout_copy(const ir::Op& op) {
  return op.kind() == ir::OpKind::kCopy && op.layout.has_value();
}

bool stores_weights_narrow(ir::DType dtype) {
  return dtype == ir::DType::kInt4 || dtype == ir::DType::kInt8 ||
         dtype == ir::DType::kFp8E4M3 || dtype == ir::DType::kFp8E5M2;
}

// The axis of the weight operand (rank `rank`) that the op reduces over: a MatMul's B is
// [..., K, N], a Gemm's [K, N] or, with transB, [N, K]; a convolution's [K, C, R, S] reduces
// over C, R and S, so only per-output-channel storage (axis 0) describes it.
std::optional<int64_t> reduction_axis(const ir::Op& op, int64_t rank) {
  if (op.kind() == ir::OpKind::kConv2d) return std::nullopt;
  if (rank < 2) return std::nullopt;
  const bool transposed = op.lowered_from != nullptr && op.lowered_from->op_type == "Gemm" &&
                          int_attribute(*op.lowered_from, "transB", 0) != 0;
  return transposed ? rank - 1 : rank - 2;
}

}  // namespace

std::optional<DequantizedWeights> dequantized_weights(const ir::Graph& graph, ir::NodeId op_id) {
  const ir::Op& op = graph.op(op_id);
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
  if (inputs.size() < 2 || ir::weight_elements(op) == 0) return std::nullopt;
  ir::NodeId weights = inputs[1];
  std::optional<ir::NodeId> producer = ir::producer_of(graph, weights);
  while (producer && is_layout_copy(graph.op(*producer)) &&
         ir::consumers_of(graph, weights).size() == 1 && graph.inputs_of(*producer).size() == 1) {
    weights = graph.inputs_of(*producer).front();
    producer = ir::producer_of(graph, weights);
  }
  if (!producer || ir::consumers_of(graph, weights).size() != 1) return std::nullopt;
  const ir::Op& dequantize = graph.op(*producer);
  const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&dequantize.attrs);
  if (elementwise == nullptr || elementwise->fn != "dequantize" ||
      dequantize.lowered_from == nullptr) {
    return std::nullopt;
  }
  const std::vector<ir::NodeId> operands = graph.inputs_of(*producer);
  if (operands.empty()) return std::nullopt;
  const ir::Tensor& codes = graph.tensor(operands.front());
  const bool constant = codes.role == ir::TensorRole::kWeight || codes.has_data() ||
                        codes.external_data_missing;
  if (!constant || !stores_weights_narrow(codes.dtype)) return std::nullopt;
  DequantizedWeights found{.dequantize = *producer, .format = {codes.dtype, 0}};
  const int64_t block = int_attribute(*dequantize.lowered_from, "block_size", 0);
  if (block == 0) {
    // Per tensor, or per axis: a scale per output channel at most, as the format counts it;
    // along another axis it would be a scale per reduction element, which none describes.
    const auto rank = static_cast<int64_t>(codes.shape.size());
    const bool per_axis = operands.size() > 1 && graph.tensor(operands[1]).shape.size() == 1 &&
                          ir::element_count(graph.tensor(operands[1]).shape) > 1;
    const std::optional<int64_t> reduction = reduction_axis(op, rank);
    if (per_axis && reduction) {
      const int64_t axis = int_attribute(*dequantize.lowered_from, "axis", 1);
      if ((axis < 0 ? axis + rank : axis) == *reduction) return std::nullopt;
    }
    return found;
  }
  const auto rank = static_cast<int64_t>(codes.shape.size());
  const std::optional<int64_t> reduction = reduction_axis(op, rank);
  const int64_t axis = int_attribute(*dequantize.lowered_from, "axis", 1);
  if (!reduction || (axis < 0 ? axis + rank : axis) != *reduction) return std::nullopt;
  found.format.group = block;
  return found;
}

void fold_into_reader(ir::Op& dequantize) {
  dequantize.attrs = ir::CopyAttrs{.bytes = 0, .is_view = true};
}

}  // namespace polyarch::passes
