#pragma once
// Reads the text IR's values: shapes, tensor types and contents, and ONNX attribute values
// (the inverse of tensor_text.h and attribute_text.h).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/ir_cursor.h"
#include "compiler/ir/op.h"

namespace polyarch::ir {

// "[1,3,224,224]", "[]" (a scalar) or "[?]" (not inferred yet), into the tensor's shape.
void parse_shape(TokenCursor& cursor, Tensor& tensor);

// ":fp32" or ":?" into the tensor's dtype.
void parse_tensor_dtype(TokenCursor& cursor, Tensor& tensor);

// What follows a tensor's type: "{1,2}" (its values), "elided", "external". Returns whether
// the text left out values the tensor has.
bool parse_tensor_contents(TokenCursor& cursor, Tensor& tensor);

// An ONNX attribute's value: 7, 0.5, "text", [1,2], [0.5], ["a"], floats[], strings[] or
// tensor<fp32[3] {1,2,3}>. Sets `elided` when a tensor value's contents were left out.
AttributeValue parse_attribute_value(TokenCursor& cursor, bool& elided);

// `name=value` pairs while the next token is a word; a name given twice is an error.
std::map<std::string, AttributeValue> parse_onnx_attributes(TokenCursor& cursor, bool& elided);

}  // namespace polyarch::ir
