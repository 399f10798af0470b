#pragma once
// Reading the ModelProto out of a file and deciding which opsets it uses.
#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace polyarch::frontend::onnx_import {

// Parses the file; anything that is not a plausible ModelProto (empty, garbage, truncated, no
// graph) is a bad-input error "not an ONNX model" naming the file.
onnx::ModelProto read_model_file(const std::filesystem::path& path);

// Imported opset version per domain; the default domain is "" (ONNX also spells it "ai.onnx").
using Opsets = std::map<std::string, int64_t>;

// Opset version per domain as the model imports them; a model that does not import the default
// domain is a bad-input error naming `file`.
Opsets declared_opsets(const onnx::ModelProto& model, const std::string& file);

// The same, checking the default domain's opset is within the range the importer reads.
Opsets model_opsets(const onnx::ModelProto& model, const std::string& file);

// "ai.onnx" and "" name the same domain.
std::string canonical_domain(const std::string& domain);

}  // namespace polyarch::frontend::onnx_import
