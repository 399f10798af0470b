#include "compiler/ir/attribute_text.h"

#include <charconv>
#include <type_traits>

#include "compiler/ir/shape_text.h"

namespace polyarch::ir {

namespace {

// Shortest text that reads back to the same double, so dumps are stable and exact.
std::string number_text(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

template <typename T, typename Format>
std::string list_text(const std::vector<T>& values, Format format) {
  std::string text = "[";
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
          return list_text(held, number_text);
        } else if constexpr (std::is_same_v<Held, std::vector<std::string>>) {
          return list_text(held, quoted);
        } else {
          return "tensor<" + std::string(dtype_name(held.dtype)) + shape_text(held.shape) + ">";
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
