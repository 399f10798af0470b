#pragma once
// Models of older opsets are brought to the first opset the importer reads by ONNX's own version
// converter (libonnx's version_conversion::ConvertVersion), so that the importer, the shape rules
// and the lowering know one definition of each operator.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>

namespace polyarch::frontend::onnx_import {

// The oldest default-domain opset the importer converts: all of them. ONNX's backend node tests
// of opsets 1 and 6 (Elu, Selu, HardSigmoid, GlobalAveragePool, Softplus, ...) convert and
// compute what ONNX expects; an operator the converter has no adapter for is refused by name.
constexpr int64_t kMinConvertibleOnnxOpset = 1;

// `model` with its default domain at opset `target`. What the converter cannot convert (an
// operator without an adapter, a node its checks reject) is a bad-input error naming `file`,
// both opsets and the converter's reason.
onnx::ModelProto upgraded_model(const onnx::ModelProto& model, int64_t from, int64_t target,
                                const std::string& file);

}  // namespace polyarch::frontend::onnx_import
