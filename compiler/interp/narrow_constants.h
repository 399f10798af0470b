#pragma once
// The values of a constant stored in a narrow format, as ONNX stores them (onnx.proto): float8
// one code per byte (OCP E4M3 or E5M2 bit patterns), int4 two's-complement nibbles packed two to
// a byte, the first element in the low nibble.
#include <optional>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

// The tensor's values when it is a constant of fp8_e4m3, fp8_e5m2 or int4; nullopt for any
// other type or a tensor without contents. A size that does not match the shape is a bad-input
// error naming the tensor.
std::optional<DenseTensor> narrow_constant_value(const ir::Tensor& tensor);

}  // namespace polyarch::interp
