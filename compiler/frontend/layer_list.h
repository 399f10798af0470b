#pragma once
// YAML layer lists: `layers: [{name: qkv, op: gemm, m: 512, n: 2304, k: 768}, ...]` with an
// optional top-level `name:`. Every key is validated; errors name file:line:col and the key
// path (e.g. layers[3].k). Ops: gemm, conv2d, attention, layernorm, rmsnorm, softmax,
// elementwise, reduce, pool (their keys: layer_list_ops.h, docs/workloads.md). Each layer
// becomes one op with its own operand tensors (layer_graph.h).
#include <filesystem>
#include <string>

#include "base/config_tree.h"
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

// Loads a layer-list file (`base:` includes allowed); the graph is named by the file's `name:`
// or else its stem.
ir::Graph load_layer_list(const std::filesystem::path& path);

// Builds the graph from an already parsed document.
ir::Graph layer_list_from_config(const ConfigNode& root, const std::string& default_name);

}  // namespace polyarch::frontend
