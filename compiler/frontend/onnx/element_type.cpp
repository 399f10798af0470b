#include "compiler/frontend/onnx/element_type.h"

#include <onnx/onnx_pb.h>

namespace polyarch::frontend::onnx_import {

std::optional<ir::DType> dtype_of_element_type(int32_t element_type) {
  switch (element_type) {
    case onnx::TensorProto::FLOAT:
      return ir::DType::kFp32;
    case onnx::TensorProto::UINT8:
      return ir::DType::kUint8;
    case onnx::TensorProto::INT8:
      return ir::DType::kInt8;
    case onnx::TensorProto::INT16:
      return ir::DType::kInt16;
    case onnx::TensorProto::INT32:
      return ir::DType::kInt32;
    case onnx::TensorProto::INT64:
      return ir::DType::kInt64;
    case onnx::TensorProto::BOOL:
      return ir::DType::kBool;
    case onnx::TensorProto::FLOAT16:
      return ir::DType::kFp16;
    case onnx::TensorProto::BFLOAT16:
      return ir::DType::kBf16;
    case onnx::TensorProto::DOUBLE:
      return ir::DType::kFp64;
    // FLOAT8E4M3FN is the OCP E4M3 (finite only, NaN at S.1111.111); the FNUZ variants have
    // another bias and no negative zero, which the IR's fp8 types do not describe.
    case kFloat8E4M3FN:
      return ir::DType::kFp8E4M3;
    case kFloat8E5M2:
      return ir::DType::kFp8E5M2;
    case kInt4:
      return ir::DType::kInt4;
    default:
      return std::nullopt;
  }
}

std::string element_type_name(int32_t element_type) {
  switch (element_type) {
    case kFloat8E4M3FN:
      return "FLOAT8E4M3FN";
    case kFloat8E4M3FNUZ:
      return "FLOAT8E4M3FNUZ";
    case kFloat8E5M2:
      return "FLOAT8E5M2";
    case kFloat8E5M2FNUZ:
      return "FLOAT8E5M2FNUZ";
    case kUint4:
      return "UINT4";
    case kInt4:
      return "INT4";
    default:
      break;
  }
  if (onnx::TensorProto::DataType_IsValid(element_type)) {
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(element_type));
  }
  return "code " + std::to_string(element_type);
}

}  // namespace polyarch::frontend::onnx_import
