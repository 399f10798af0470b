#pragma once
// Shape and element-type rules of the ONNX operators the compiler supports (opsets 13-21),
// grouped by family in onnx_shapes_*.cpp.
#include <string>
#include <vector>

#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::passes {

using ShapeRule = InferredResults (*)(const ShapeContext&);

// Output shapes and types of the node; nullopt while an input is not known yet. An op type
// without a rule is a bad-input error naming node, op type and opset.
InferredResults infer_onnx_node(const ShapeContext& context);

// The rule of a default-domain (ai.onnx) operator, from whichever family knows it; null when
// none does.
ShapeRule default_domain_shape_rule(const std::string& op_type);

// Every supported op type, sorted (for docs and tests).
std::vector<std::string> supported_onnx_op_types();

// The families' rules, looked up by op type; null when the family does not know it.
ShapeRule elementwise_shape_rule(const std::string& op_type);
ShapeRule nn_shape_rule(const std::string& op_type);
ShapeRule tensor_shape_rule(const std::string& op_type);
ShapeRule indexing_shape_rule(const std::string& op_type);
ShapeRule signal_shape_rule(const std::string& op_type);  // windows, DFT, STFT
ShapeRule linear_shape_rule(const std::string& op_type);  // Einsum, integer products
// NonMaxSuppression, Unique, MaxUnpool
ShapeRule selection_shape_rule(const std::string& op_type);

// Op types of each family, for supported_onnx_op_types().
std::vector<std::string> elementwise_op_types();
std::vector<std::string> nn_op_types();
std::vector<std::string> tensor_op_types();
std::vector<std::string> indexing_op_types();
std::vector<std::string> signal_op_types();
std::vector<std::string> linear_op_types();
std::vector<std::string> selection_op_types();

}  // namespace polyarch::passes
