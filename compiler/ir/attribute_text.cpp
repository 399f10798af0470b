#include "compiler/ir/attribute_text.h"

#include <charconv>
#include <type_traits>

#include "compiler/ir/name_text.h"
#include "compiler/ir/shape_text.h"
#include "compiler/ir/tensor_text.h"

namespace polyarch::ir {

namespace {

// Shortest text that reads back to the same double, so dumps are stable and exact; a whole
// number keeps a ".0" so that the text IR reads it back as a float attribute, not an integer.
std::string number_text(double value) {
  char buffer[40];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

std::string quoted(const std::string& text) { return quoted_text(text); }

// An empty list names its element type ("floats[]", "strings[]"), which no element can tell;
// an empty integer list stays "[]".
template <typename T, typename Format>
std::string list_text(const std::vector<T>& values, Format format, const char* empty_prefix) {
  std::string text = values.empty() ? std::string(empty_prefix) + "[" : "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ',';
    text += format(values[i]);
  }
  return text + "]";
}

}  // namespace

std::string attribute_value_text(const AttributeValue& value) {
  return std::visit(
      [](const auto& held) -> std::string {
        using Held = std::decay_t<decltype(held)>;
        if constexpr (std::is_same_v<Held, int64_t>) {
          return std::to_string(held);
        } else if constexpr (std::is_same_v<Held, double>) {
          return number_text(held);
        } else if constexpr (std::is_same_v<Held, std::string>) {
          return quoted(held);
        } else if constexpr (std::is_same_v<Held, std::vector<int64_t>>) {
          return shape_text(held);
        } else if constexpr (std::is_same_v<Held, std::vector<double>>) {
          return list_text(held, number_text, "floats");
        } else if constexpr (std::is_same_v<Held, std::vector<std::string>>) {
          return list_text(held, quoted, "strings");
        } else {
          // The tensor's type, then its values when few (a Constant's shape or scalar).
          return "tensor<" + std::string(dtype_name(held.dtype)) + tensor_shape_text(held) +
                 tensor_contents_text(held) + ">";
        }
      },
      value);
}

std::string onnx_attributes_text(const OnnxNodeAttrs& node) {
  std::string text;
  for (const auto& [name, value] : node.attributes) {
    if (!text.empty()) text += ' ';
    text += name + "=" + attribute_value_text(value);
  }
  return text;
}

}  // namespace polyarch::ir
