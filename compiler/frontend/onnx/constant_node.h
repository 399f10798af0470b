#pragma once
// The value a Constant node produces, so its output tensor carries the contents and later
// passes (constant folding) can read them like an initializer's.
#include <optional>

#include "base/error.h"
#include "compiler/ir/op.h"

namespace polyarch::frontend::onnx_import {

// From the node's one value attribute (value, value_float(s), value_int(s)); nullopt when it
// has none the IR can hold. A node with several value attributes is a bad-input error.
std::optional<ir::Tensor> constant_value(const ir::OnnxNodeAttrs& node,
                                         const SourceLocation& where);

}  // namespace polyarch::frontend::onnx_import
