// Lowering of elementwise ONNX nodes (arithmetic, activations, comparisons, Where, casts,
// quantisation, inference-mode BatchNormalization) to Elementwise ops.
#include <algorithm>
#include <cctype>

#include "compiler/lower/lower_context.h"

namespace polyarch::lower {

namespace {

// "GreaterOrEqual" -> "greaterorequal", "DequantizeLinear" -> "dequantize".
std::string function_name(const std::string& op_type) {
  if (op_type == "QuantizeLinear") return "quantize";
  if (op_type == "DequantizeLinear") return "dequantize";
  if (op_type == "BatchNormalization") return "batchnorm";
  std::string name = op_type;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

}  // namespace

// `inputs` counts the operands read element for element (as large as the result); smaller
// broadcast operands (scalars, per-channel scales, biases) are read once and left out of the
// per-element traffic, but stay operands so their parameters are still counted.
Lowered lower_elementwise(const LowerContext& context) {
  ir::ElementwiseAttrs attrs;
  attrs.fn = function_name(context.op_type());
  attrs.elements = context.result_elements();
  attrs.approximate_tanh =
      attrs.fn == "gelu" &&
      passes::string_attribute(context.node(), "approximate", "none") == "tanh";
  int64_t full_size = 0;
  for (std::size_t i = 0; i < context.operand_slots(); ++i) {
    if (context.has(i) && ir::element_count(context.shape(i)) == attrs.elements) ++full_size;
  }
  attrs.inputs = std::max<int64_t>(1, full_size);
  return {attrs, context.present_operands()};
}

}  // namespace polyarch::lower
