#pragma once
// One entry point for every workload file format; picks the frontend by file extension.
#include <filesystem>
#include <string>

#include "compiler/ir/graph.h"

namespace polyarch::frontend {

// .yaml / .yml -> model builder (a top-level `model:` map) or layer list; .csv -> SCALE-Sim
// topology; .onnx -> ONNX model; .ir -> the text IR (ir_file.h); an inline spec such as
// `gemm:4096,4096,4096` (no such file) -> one op (inline_workload.h). Anything else is a bad-input
// error listing the accepted extensions.
ir::Graph load_workload(const std::filesystem::path& path);

// SHA-256 of the workload file (of the spec text for an inline workload), for provenance.
std::string workload_sha256(const std::filesystem::path& path);

}  // namespace polyarch::frontend
