#pragma once
// ONNX TensorProto.DataType codes <-> ir::DType.
#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ir/dtype.h"

namespace polyarch::frontend::onnx_import {

// nullopt for element types the IR has no DType for (string, uint16, complex, float8, ...).
std::optional<ir::DType> dtype_of_element_type(int32_t element_type);

// "FLOAT", "INT64", ... as ONNX names them, for errors; "code 42" for unknown codes.
std::string element_type_name(int32_t element_type);

}  // namespace polyarch::frontend::onnx_import
