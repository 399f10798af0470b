#include "compiler/ir/ir_value_parser.h"

#include "compiler/passes/tensor_values.h"

namespace polyarch::ir {

namespace {

DType parse_dtype_word(TokenCursor& cursor) {
  const Token& token = cursor.peek();
  const std::optional<DType> dtype =
      token.kind == TokenKind::kWord ? parse_dtype(token.text) : std::nullopt;
  if (!dtype) cursor.fail_expected("an element type (int8, fp32, int64, ...)");
  cursor.take();
  return *dtype;
}

// Elements of a "{...}" list as `dtype` values: integers for integer and bool types, reals
// (each read as the dtype's own precision) for fp32 and fp64.
passes::Values parse_values(TokenCursor& cursor, const Tensor& tensor) {
  const Token& open = cursor.peek();
  cursor.expect_punct('{');
  passes::Values values = passes::empty_values(tensor.dtype, tensor.shape);
  if (!passes::is_float_dtype(tensor.dtype) || tensor.dtype == DType::kFp32 ||
      tensor.dtype == DType::kFp64) {
    while (!cursor.at_punct('}')) {
      if (values.size() > 0) cursor.expect_punct(',');
      if (values.is_float()) {
        const double value = cursor.expect_real("a number");
        // fp32 values were printed as the shortest text for the float: round once, to float.
        values.reals.push_back(
            tensor.dtype == DType::kFp32 ? static_cast<double>(static_cast<float>(value)) : value);
      } else {
        values.ints.push_back(cursor.expect_integer("an integer"));
      }
    }
  } else {
    cursor.fail_at(open, "values of " + std::string(dtype_name(tensor.dtype)) +
                             " tensors cannot be written in the text IR (leave them elided)");
  }
  cursor.expect_punct('}');
  if (!tensor.shape_known() || values.size() != element_count(tensor.shape)) {
    cursor.fail_at(open, "tensor '" + tensor.name + "' has " + std::to_string(values.size()) +
                             " values for shape " +
                             (tensor.shape_known() ? std::to_string(element_count(tensor.shape))
                                                   : std::string("[?]")) +
                             " elements");
  }
  return values;
}

template <typename T, typename Read>
std::vector<T> list_of(TokenCursor& cursor, Read read) {
  std::vector<T> items;
  while (!cursor.at_punct(']')) {
    if (!items.empty()) cursor.expect_punct(',');
    items.push_back(read());
  }
  cursor.expect_punct(']');
  return items;
}

bool is_real_text(const std::string& text) {
  return text.find_first_of(".en") != std::string::npos;
}

// tensor<fp32[3] {1,2,3}>: a tensor-valued attribute (a Constant's value).
Tensor parse_tensor_attribute(TokenCursor& cursor, bool& elided) {
  cursor.expect_punct('<');
  Tensor tensor;
  tensor.role = TensorRole::kWeight;
  tensor.dtype = parse_dtype_word(cursor);
  parse_shape(cursor, tensor);
  elided = parse_tensor_contents(cursor, tensor) || elided;
  cursor.expect_punct('>');
  return tensor;
}

}  // namespace

void parse_shape(TokenCursor& cursor, Tensor& tensor) {
  cursor.expect_punct('[');
  tensor.shape.clear();
  tensor.scalar = false;
  if (cursor.accept_punct('?')) {
    cursor.expect_punct(']');
    return;
  }
  tensor.shape = list_of<int64_t>(cursor, [&] { return cursor.expect_integer("a dimension"); });
  tensor.scalar = tensor.shape.empty();
}

void parse_tensor_dtype(TokenCursor& cursor, Tensor& tensor) {
  cursor.expect_punct(':');
  tensor.dtype_known = !cursor.accept_punct('?');
  if (tensor.dtype_known) tensor.dtype = parse_dtype_word(cursor);
}

bool parse_tensor_contents(TokenCursor& cursor, Tensor& tensor) {
  bool elided = false;
  if (cursor.at_punct('{')) {
    passes::store_values(parse_values(cursor, tensor), tensor);
  } else if (cursor.accept_word("elided")) {
    elided = true;
  }
  if (cursor.accept_word("external")) tensor.external_data_missing = true;
  return elided;
}

AttributeValue parse_attribute_value(TokenCursor& cursor, bool& elided) {
  const Token& token = cursor.peek();
  if (token.kind == TokenKind::kString) return cursor.take().text;
  if (cursor.accept_word("tensor")) return parse_tensor_attribute(cursor, elided);
  if (cursor.accept_word("floats")) {
    cursor.expect_punct('[');
    cursor.expect_punct(']');
    return std::vector<double>{};
  }
  if (cursor.accept_word("strings")) {
    cursor.expect_punct('[');
    cursor.expect_punct(']');
    return std::vector<std::string>{};
  }
  if (cursor.accept_punct('[')) {
    // The first element says the list's type: "text", a real (has '.', 'e', nan or inf) or an
    // integer.
    const Token& first = cursor.peek();
    if (first.kind == TokenKind::kString) {
      return list_of<std::string>(
          cursor, [&] { return cursor.expect(TokenKind::kString, "a string").text; });
    }
    if (first.kind == TokenKind::kWord && is_real_text(first.text)) {
      return list_of<double>(cursor, [&] { return cursor.expect_real("a number"); });
    }
    return list_of<int64_t>(cursor, [&] { return cursor.expect_integer("an integer"); });
  }
  if (token.kind == TokenKind::kWord && is_real_text(token.text)) {
    return cursor.expect_real("a number");
  }
  if (token.kind == TokenKind::kWord && integer_from_text(token.text)) {
    return cursor.expect_integer("an integer");
  }
  cursor.fail_expected("an attribute value (number, \"string\", [list] or tensor<...>)");
}

std::map<std::string, AttributeValue> parse_onnx_attributes(TokenCursor& cursor, bool& elided) {
  std::map<std::string, AttributeValue> attributes;
  while (cursor.peek().kind == TokenKind::kWord) {
    const Token& name = cursor.take();
    cursor.expect_punct('=');
    AttributeValue value = parse_attribute_value(cursor, elided);
    if (!attributes.emplace(name.text, std::move(value)).second) {
      cursor.fail_at(name, "attribute '" + name.text + "' is given twice");
    }
  }
  return attributes;
}

}  // namespace polyarch::ir
