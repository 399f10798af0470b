// Shape rules of operators whose results' sizes depend on the values: NonMaxSuppression and
// Unique, whose model-declared result shapes stand in (the interpreter holds the values to
// them), and MaxUnpool, sized by its output_shape operand or its window.
#include <map>

#include "base/checked_math.h"
#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

namespace {

InferredResults non_max_suppression(const ShapeContext& context) {
  context.require_operands(2);
  return std::nullopt;
}

InferredResults unique(const ShapeContext& context) {
  context.require_operands(1);
  return std::nullopt;
}

// Without output_shape each spatial axis is (in - 1) * stride + kernel - pads at both ends.
InferredResults max_unpool(const ShapeContext& context) {
  context.require_operands(2);
  if (context.has(2)) {
    const auto sizes = context.int_values(2);
    if (!sizes) return std::nullopt;
    return context.same_for_all(*sizes, context.dtype(0));
  }
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  const Shape kernel = context.ints_attr("kernel_shape");
  const std::size_t spatial = input.size() < 2 ? 0 : input.size() - 2;
  const Shape strides = context.ints_attr("strides", Shape(spatial, 1));
  const Shape pads = context.ints_attr("pads", Shape(2 * spatial, 0));
  if (spatial == 0 || kernel.size() != spatial || strides.size() != spatial ||
      pads.size() != 2 * spatial) {
    context.fail("kernel_shape, strides and pads do not match input " + shape_string(input));
  }
  Shape output = {input[0], input[1]};
  for (std::size_t axis = 0; axis < spatial; ++axis) {
    output.push_back(checked_mul(input[axis + 2] - 1, strides[axis], "unpooled size") +
                     kernel[axis] - pads[axis] - pads[axis + spatial]);
  }
  return context.same_for_all(output, context.dtype(0));
}

const std::map<std::string, ShapeRule>& selection_rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"NonMaxSuppression", non_max_suppression},
      {"Unique", unique},
      {"MaxUnpool", max_unpool},
  };
  return table;
}

}  // namespace

ShapeRule selection_shape_rule(const std::string& op_type) {
  const auto found = selection_rules().find(op_type);
  return found == selection_rules().end() ? nullptr : found->second;
}

std::vector<std::string> selection_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : selection_rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
