#pragma once
// Types the model declares for its values (graph inputs, outputs, value_info entries).
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "compiler/ir/dtype.h"

namespace polyarch::frontend::onnx_import {

struct DeclaredType {
  std::optional<ir::DType> dtype;             // nullopt: not declared
  std::optional<std::vector<int64_t>> shape;  // nullopt: rank or a size not declared
  std::string symbolic_dim;                   // the first dim_param met, if any ("batch")
};

// Reads a tensor type; a non-tensor value (sequence, map, optional) or an element type the IR
// lacks is a bad-input error at `where`.
DeclaredType declared_type(const onnx::ValueInfoProto& value, const SourceLocation& where);

}  // namespace polyarch::frontend::onnx_import
