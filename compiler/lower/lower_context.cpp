#include "compiler/lower/lower_context.h"

#include "base/checked_math.h"

namespace polyarch::lower {

LowerContext::LowerContext(const ir::Graph& graph, ir::NodeId op_id)
    : graph_(graph),
      op_(graph.op(op_id)),
      node_(passes::onnx_node(op_)),
      operands_(passes::onnx_operands(graph, op_id)),
      results_(graph.outputs_of(op_id)) {
  if (node_ == nullptr) throw_runtime({}, "lowering a canonical op '" + op_.name + "' again");
}

ir::NodeId LowerContext::operand_id(std::size_t i) const {
  if (!has(i)) fail("needs operand " + std::to_string(i) + ", which is missing");
  return *operands_[i];
}

std::vector<ir::NodeId> LowerContext::present_operands() const {
  std::vector<ir::NodeId> present;
  for (const auto& operand : operands_) {
    if (operand) present.push_back(*operand);
  }
  return present;
}

const ir::Tensor& LowerContext::result(std::size_t i) const {
  if (i >= results_.size()) fail("has no result " + std::to_string(i));
  return graph_.tensor(results_[i]);
}

int64_t LowerContext::result_elements(std::size_t i) const {
  return ir::element_count(result(i).shape);
}

int64_t LowerContext::result_bytes(std::size_t i) const {
  return ir::storage_bytes(result_elements(i), result(i).dtype);
}

}  // namespace polyarch::lower
