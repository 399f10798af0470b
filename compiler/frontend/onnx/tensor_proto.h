#pragma once
// TensorProto (initializers, tensor attributes) -> ir::Tensor, contents included.
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <string>

#include "base/error.h"
#include "compiler/ir/tensor.h"

namespace polyarch::frontend::onnx_import {

struct ImportedTensor {
  ir::Tensor tensor;
  // Set when the contents live in an external file that does not exist: the path looked for.
  std::string missing_external_file;
};

// `model_dir` resolves external-data locations; `where` names the initializer or attribute in
// errors (a shape that disagrees with the bytes present, an element type the IR lacks).
ImportedTensor tensor_from_proto(const onnx::TensorProto& proto, ir::TensorRole role,
                                 const std::filesystem::path& model_dir,
                                 const SourceLocation& where);

}  // namespace polyarch::frontend::onnx_import
