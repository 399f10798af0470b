#pragma once
// ONNX TensorProto.DataType codes <-> ir::DType.
#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ir/dtype.h"

namespace polyarch::frontend::onnx_import {

// The codes ONNX added after the libonnx polyarch builds with (IR version 9 added the float8
// types, 10 the 4-bit integers; onnx.proto's TensorProto.DataType): the proto's data_type and
// elem_type fields are plain int32s, so models carrying them parse, and these name them.
inline constexpr int32_t kFloat8E4M3FN = 17;
inline constexpr int32_t kFloat8E4M3FNUZ = 18;
inline constexpr int32_t kFloat8E5M2 = 19;
inline constexpr int32_t kFloat8E5M2FNUZ = 20;
inline constexpr int32_t kUint4 = 21;
inline constexpr int32_t kInt4 = 22;

// nullopt for element types the IR has no DType for (string, uint16, complex, the FNUZ float8
// variants, uint4, ...).
std::optional<ir::DType> dtype_of_element_type(int32_t element_type);

// "FLOAT", "INT64", ... as ONNX names them, for errors; "code 42" for unknown codes.
std::string element_type_name(int32_t element_type);

}  // namespace polyarch::frontend::onnx_import
