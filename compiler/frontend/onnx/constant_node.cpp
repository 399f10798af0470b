#include "compiler/frontend/onnx/constant_node.h"

#include <cstring>
#include <type_traits>

namespace polyarch::frontend::onnx_import {

namespace {

// A scalar or 1-D tensor holding `values` as `dtype`, each converted to the element type T.
template <typename T, typename Source>
ir::Tensor constant_tensor(const std::vector<Source>& values, ir::DType dtype, bool scalar) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const T element = static_cast<T>(values[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &element, sizeof(T));
  }
  ir::Tensor tensor;
  tensor.dtype = dtype;
  tensor.role = ir::TensorRole::kWeight;
  tensor.scalar = scalar;
  if (!scalar) tensor.shape = {static_cast<int64_t>(values.size())};
  tensor.data = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  return tensor;
}

std::optional<ir::Tensor> tensor_of(const std::string& name, const ir::AttributeValue& value) {
  if (name == "value") return std::get<ir::Tensor>(value);
  // ONNX's value_float(s) are fp32 and value_int(s) int64 (Constant, opset 12 and later).
  if (name == "value_float") {
    return constant_tensor<float>(std::vector<double>{std::get<double>(value)}, ir::DType::kFp32,
                                  true);
  }
  if (name == "value_floats") {
    return constant_tensor<float>(std::get<std::vector<double>>(value), ir::DType::kFp32, false);
  }
  if (name == "value_int") {
    return constant_tensor<int64_t>(std::vector<int64_t>{std::get<int64_t>(value)},
                                    ir::DType::kInt64, true);
  }
  if (name == "value_ints") {
    return constant_tensor<int64_t>(std::get<std::vector<int64_t>>(value), ir::DType::kInt64,
                                    false);
  }
  return std::nullopt;  // value_string(s), sparse_value: no string or sparse tensors in the IR
}

}  // namespace

std::optional<ir::Tensor> constant_value(const ir::OnnxNodeAttrs& node,
                                         const SourceLocation& where) {
  if (node.attributes.size() != 1) {
    throw_bad_input(where, "a Constant node needs exactly one value attribute, it has " +
                               std::to_string(node.attributes.size()));
  }
  const auto& [name, value] = *node.attributes.begin();
  try {
    return tensor_of(name, value);
  } catch (const std::bad_variant_access&) {
    throw_bad_input(where, "Constant attribute '" + name + "' has the wrong type");
  }
}

}  // namespace polyarch::frontend::onnx_import
