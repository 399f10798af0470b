#include "compiler/frontend/onnx/model_file.h"

#include <fstream>
#include <iterator>

#include "base/error.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/onnx/opset_upgrade.h"

namespace polyarch::frontend::onnx_import {

namespace {

[[noreturn]] void not_a_model(const std::string& file, const std::string& why) {
  throw_bad_input({file, 0, 0, ""}, "not an ONNX model: " + why);
}

}  // namespace

onnx::ModelProto read_model_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_bad_input({file, 0, 0, ""}, "cannot open the ONNX model file");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) not_a_model(file, "the file is empty");
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) {
    not_a_model(file, "the protobuf data is malformed (a truncated or corrupted file?)");
  }
  // ONNX files have no magic number, and protobuf accepts many random byte strings as a message
  // of unknown fields; a real export always records its IR version, a graph and an opset.
  if (model.ir_version() <= 0) not_a_model(file, "it has no ONNX IR version");
  if (!model.has_graph()) not_a_model(file, "it has no graph");
  if (model.opset_import_size() == 0) not_a_model(file, "it imports no opset");
  return model;
}

std::string canonical_domain(const std::string& domain) {
  return domain == "ai.onnx" ? "" : domain;
}

Opsets declared_opsets(const onnx::ModelProto& model, const std::string& file) {
  Opsets opsets;
  for (const onnx::OperatorSetIdProto& entry : model.opset_import()) {
    opsets[canonical_domain(entry.domain())] = entry.version();
  }
  const auto standard = opsets.find("");
  if (standard == opsets.end()) {
    throw_bad_input({file, 0, 0, "opset_import"},
                    "the model does not import the default ONNX (ai.onnx) domain");
  }
  return opsets;
}

Opsets model_opsets(const onnx::ModelProto& model, const std::string& file) {
  Opsets opsets = declared_opsets(model, file);
  const auto standard = opsets.find("");
  if (standard->second < kMinOnnxOpset || standard->second > kMaxOnnxOpset) {
    throw_bad_input({file, 0, 0, "opset_import"},
                    "the model uses ONNX opset " + std::to_string(standard->second) +
                        "; polyarch imports opsets " + std::to_string(kMinOnnxOpset) + " to " +
                        std::to_string(kMaxOnnxOpset) + ", and " +
                        std::to_string(kMinConvertibleOnnxOpset) + " to " +
                        std::to_string(kMinOnnxOpset - 1) + " through ONNX's version converter");
  }
  return opsets;
}

}  // namespace polyarch::frontend::onnx_import
