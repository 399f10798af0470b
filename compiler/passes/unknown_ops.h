#pragma once
// --allow-unknown: ONNX nodes the compiler has no rules for (an operator outside opsets 13-21's
// supported set, or from a custom domain) are kept as placeholders costed by their output
// bytes instead of stopping the import. Shape inference sees a placeholder through the rule
// below; lowering turns it into an Elementwise op with fn "unknown:<OpType>".
#include <string_view>

#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::passes {

// The domain a placeholder node carries; its op_type keeps the original name, qualified by the
// original domain when that was not the default one ("com.microsoft.FusedMatMul").
inline constexpr std::string_view kUnknownOpDomain = "polyarch.unknown";

// Whether the compiler has a shape rule (and so a lowering) for the node.
bool is_supported_onnx_node(const ir::OnnxNodeAttrs& node);

// Throws one bad-input error naming every node of the graph whose operator the compiler does
// not support, grouped by operator with counts (node, op type and opset each), so that a model
// with several shows them all at once; a single one reads as shape inference would say it.
void require_supported_onnx_nodes(const ir::Graph& graph);

// A placeholder whose model did not declare its results: every result is assumed to have
// operand 0's shape and element type (most unsupported ops in practice are elementwise-like
// activations or normalisations). Nullopt while operand 0's shape is unknown; a node error
// when there is no operand to copy from.
InferredResults unknown_op_shape_rule(const ShapeContext& context);

}  // namespace polyarch::passes
