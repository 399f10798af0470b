#pragma once
// How ONNX node attributes appear in IR dumps: `name=value` pairs in name order.
#include <string>

#include "compiler/ir/op.h"

namespace polyarch::ir {

// "7", "0.5", "\"SAME_UPPER\"", "[1,1]", "tensor<fp32[3]>".
std::string attribute_value_text(const AttributeValue& value);

// "axis=1 keepdims=0", empty for a node without attributes.
std::string onnx_attributes_text(const OnnxNodeAttrs& node);

}  // namespace polyarch::ir
