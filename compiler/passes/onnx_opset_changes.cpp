#include "compiler/passes/onnx_opset_changes.h"

#include "compiler/passes/onnx_node.h"

namespace polyarch::passes {

namespace {

[[noreturn]] void refuse(const ShapeContext& context, const std::string& what, int64_t since) {
  context.fail("(opset " + std::to_string(context.node().opset) + "): " + what +
               ", which opset " + std::to_string(since) + " introduced, is not supported");
}

}  // namespace

void check_opset_changes(const ShapeContext& context) {
  const ir::OnnxNodeAttrs& node = context.node();
  if (!node.domain.empty()) return;
  const std::string& type = node.op_type;
  if (node.opset >= 19 && type == "Pad" && string_attribute(node, "mode", "constant") == "wrap") {
    refuse(context, "mode 'wrap'", 19);
  }
  if (node.opset >= 19 && type == "Resize" &&
      string_attribute(node, "coordinate_transformation_mode", "half_pixel") ==
          "half_pixel_symmetric") {
    refuse(context, "coordinate_transformation_mode 'half_pixel_symmetric'", 19);
  }
  if (node.opset >= 20 && type == "DFT") {
    refuse(context, "the axis as an operand (and -2 as its default)", 20);
  }
  if (node.opset >= 20 && type == "GridSample" && context.has(0) && context.shape_known(0) &&
      context.rank(0) != 4) {
    refuse(context, "sampling a " + std::to_string(context.rank(0)) + "-D input", 20);
  }
}

}  // namespace polyarch::passes
