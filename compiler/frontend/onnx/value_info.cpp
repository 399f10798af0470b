#include "compiler/frontend/onnx/value_info.h"

#include "compiler/frontend/onnx/element_type.h"

namespace polyarch::frontend::onnx_import {

DeclaredType declared_type(const onnx::ValueInfoProto& value, const SourceLocation& where) {
  DeclaredType declared;
  if (!value.has_type()) return declared;
  if (!value.type().has_tensor_type()) {
    throw_bad_input(where, "value '" + value.name() +
                               "' is not a tensor (sequence, map and optional values are not "
                               "supported)");
  }
  const onnx::TypeProto_Tensor& tensor_type = value.type().tensor_type();
  if (tensor_type.elem_type() != onnx::TensorProto::UNDEFINED) {
    declared.dtype = dtype_of_element_type(tensor_type.elem_type());
    if (!declared.dtype) {
      throw_bad_input(where, "value '" + value.name() + "' has element type " +
                                 element_type_name(tensor_type.elem_type()) +
                                 ", which polyarch does not support");
    }
  }
  if (!tensor_type.has_shape()) return declared;
  std::vector<int64_t> shape;
  for (const onnx::TensorShapeProto_Dimension& dim : tensor_type.shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() >= 0) {
      shape.push_back(dim.dim_value());
      continue;
    }
    if (dim.has_dim_param() && declared.symbolic_dim.empty()) {
      declared.symbolic_dim = dim.dim_param();
    }
    return declared;  // a size nobody fixed: the shape is not known
  }
  declared.shape = std::move(shape);
  return declared;
}

}  // namespace polyarch::frontend::onnx_import
