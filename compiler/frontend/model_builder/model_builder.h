#pragma once
// Entry point of the model builders: a workload YAML with a top-level `model:` map
// (model_config.h) becomes the graph of canonical ops its family's builder generates
// (transformer_builder.h, resnet_builder.h, mobilenet_builder.h, vgg_builder.h).
#include <filesystem>
#include <string>

#include "compiler/frontend/model_builder/model_config.h"
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::Graph build_model(const ModelConfig& config);

// Reads and builds an already parsed document; `default_name` names the graph unless the
// document has a `name:`.
ir::Graph model_graph_from_config(const ConfigNode& root, const std::string& default_name);

// Loads a model file (`base:` includes allowed); the graph is named by `name:` or the stem.
ir::Graph load_model(const std::filesystem::path& path);

}  // namespace polyarch::frontend
