#include "compiler/frontend/onnx/opset_upgrade.h"

#include <onnx/version_converter/convert.h>

#include <exception>

#include "base/error.h"

namespace polyarch::frontend::onnx_import {

namespace {

// The converter's messages run to several lines (a C++ source position, then the reason); the
// reason is the last non-empty one.
std::string last_line(const std::string& message) {
  std::string line;
  for (std::size_t start = 0; start < message.size();) {
    std::size_t end = message.find('\n', start);
    if (end == std::string::npos) end = message.size();
    if (end > start) line = message.substr(start, end - start);
    start = end + 1;
  }
  return line;
}

}  // namespace

onnx::ModelProto upgraded_model(const onnx::ModelProto& model, int64_t from, int64_t target,
                                const std::string& file) {
  try {
    return onnx::version_conversion::ConvertVersion(model, static_cast<int>(target));
  } catch (const std::exception& error) {
    throw_bad_input({file, 0, 0, "opset_import"},
                    "ONNX's version converter cannot bring the model from opset " +
                        std::to_string(from) + " to " + std::to_string(target) + ": " +
                        last_line(error.what()));
  }
}

}  // namespace polyarch::frontend::onnx_import
