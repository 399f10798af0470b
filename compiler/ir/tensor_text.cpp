#include "compiler/ir/tensor_text.h"

#include <charconv>

#include "compiler/ir/name_text.h"
#include "compiler/ir/shape_text.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::ir {

namespace {

// fp32 values print as the shortest text that reads back to the same float (0.1, not
// 0.100000001490116), fp64 ones as the shortest for the double.
std::string real_text(double value, DType dtype) {
  char buffer[40];
  const auto result = dtype == DType::kFp32 ? std::to_chars(buffer, buffer + sizeof(buffer),
                                                            static_cast<float>(value))
                                            : std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

// "{1,2,3}" when the tensor's values are readable and few enough; nullopt otherwise.
std::optional<std::string> values_text(const Tensor& tensor) {
  if (!tensor.has_data() || !tensor.shape_known()) return std::nullopt;
  if (element_count(tensor.shape) > kMaxTextValueElements) return std::nullopt;
  const std::optional<passes::Values> values = passes::read_values(tensor);
  if (!values) return std::nullopt;  // fp16 and bf16 contents stay structure only
  std::string text = "{";
  for (int64_t i = 0; i < values->size(); ++i) {
    if (i > 0) text += ',';
    const auto index = static_cast<std::size_t>(i);
    text += values->is_float() ? real_text(values->reals[index], tensor.dtype)
                               : std::to_string(values->ints[index]);
  }
  return text + "}";
}

}  // namespace

std::string tensor_shape_text(const Tensor& tensor) {
  return tensor.shape_known() ? shape_text(tensor.shape) : "[?]";
}

std::string tensor_type_text(const Tensor& tensor) {
  return tensor_shape_text(tensor) + ":" +
         (tensor.dtype_known ? std::string(dtype_name(tensor.dtype)) : "?");
}

std::string tensor_contents_text(const Tensor& tensor) {
  std::string text;
  // Values the text leaves out are not marked tensor by tensor (a graph read back has none to
  // mark, so the mark would not survive a round trip): the graph's `unavailable` line says so.
  if (const std::optional<std::string> values = values_text(tensor)) text += " " + *values;
  if (tensor.external_data_missing) text += " external";
  return text;
}

bool contents_elided(const Tensor& tensor) {
  return tensor.has_data() && !values_text(tensor).has_value();
}

std::string tensor_definition_text(const Tensor& tensor) {
  return "%" + name_text(tensor.name) + tensor_type_text(tensor) + tensor_contents_text(tensor);
}

}  // namespace polyarch::ir
