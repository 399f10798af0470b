#pragma once
// ONNX frontend: reads an ONNX model (opsets 13-21 of the default domain; 1-12 converted to 13
// by ONNX's version converter first) into the graph IR.
// Every node becomes an ir::OnnxNodeAttrs op, connected through named tensors; lowering to
// canonical ops is a later compiler stage.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::frontend {

// Opsets of the default (ai.onnx) domain the importer accepts.
constexpr int64_t kMinOnnxOpset = 13;
constexpr int64_t kMaxOnnxOpset = 21;

struct OnnxImport {
  ir::Graph graph;
  int64_t opset = 0;       // of the default domain, as imported
  int64_t file_opset = 0;  // as the file declares it: older when the converter upgraded it
  std::string producer;  // "pytorch 2.11.0", for provenance
  // Graph inputs (initializers excluded) and outputs in the model's order: what a run feeds
  // and what it writes.
  std::vector<std::string> input_names;
  std::vector<std::string> output_names;
  // How many nodes of each op type ("onnx:Conv", "onnx:com.microsoft.Attention") the model
  // has: the set the compiler must support for this model.
  std::map<std::string, int64_t> op_type_counts;
};

// Errors are bad input naming the file and, for a node, its index, name and op type: a file
// that is not an ONNX model (empty, garbage, truncated), an unsupported opset, a node input no
// one produces, two producers of one tensor, a cycle, a symbolic input dimension, a model the
// version converter cannot bring to opset 13. Initializers whose external data file is absent
// load with shapes only, and the graph is marked functionally unavailable with the reason.
OnnxImport import_onnx(const std::filesystem::path& path);

// The graph alone, for load_workload.
ir::Graph load_onnx(const std::filesystem::path& path);

}  // namespace polyarch::frontend
