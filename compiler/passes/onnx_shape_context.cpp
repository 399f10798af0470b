#include "compiler/passes/onnx_shape_context.h"

#include "compiler/ir/shape_text.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

bool ShapeContext::shape_known(std::size_t i) const {
  return has(i) && operands_[i]->shape_known();
}

bool ShapeContext::shapes_known() const {
  for (const ir::Tensor* operand : operands_) {
    if (operand != nullptr && !operand->shape_known()) return false;
  }
  return true;
}

const ir::Tensor& ShapeContext::operand(std::size_t i) const {
  if (!has(i)) fail("needs operand " + std::to_string(i) + ", which is missing");
  return *operands_[i];
}

std::optional<std::vector<int64_t>> ShapeContext::int_values(std::size_t i) const {
  if (!has(i)) return std::nullopt;
  const std::optional<Values> values = read_values(*operands_[i]);
  if (!values) return std::nullopt;
  std::vector<int64_t> ints;
  for (std::size_t k = 0; k < static_cast<std::size_t>(values->size()); ++k) {
    ints.push_back(values->integer(k));
  }
  return ints;
}

void ShapeContext::require_operands(std::size_t count) const {
  for (std::size_t i = 0; i < count; ++i) {
    if (!has(i)) {
      fail("needs at least " + std::to_string(count) + " operands, operand " + std::to_string(i) +
           " is missing");
    }
  }
}

InferredResults ShapeContext::same_for_all(const Shape& shape, ir::DType dtype) const {
  return std::vector<TypedShape>(result_count_, TypedShape{shape, dtype});
}

std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape result(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    // Align from the trailing dimension.
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    result[i] = da == 1 ? db : da;
  }
  return result;
}

std::string shape_string(const Shape& shape) { return ir::shape_text(shape); }

}  // namespace polyarch::passes
