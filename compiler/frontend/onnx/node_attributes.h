#pragma once
// AttributeProto -> ir::AttributeValue.
#include <onnx/onnx_pb.h>

#include <filesystem>

#include "base/error.h"
#include "compiler/ir/op.h"

namespace polyarch::frontend::onnx_import {

// Subgraph (If/Loop/Scan bodies), sparse-tensor and type attributes are a bad-input error at
// `where`; so is a tensor attribute whose data is in an absent external file.
ir::AttributeValue attribute_value(const onnx::AttributeProto& attribute,
                                   const std::filesystem::path& model_dir,
                                   const SourceLocation& where);

}  // namespace polyarch::frontend::onnx_import
