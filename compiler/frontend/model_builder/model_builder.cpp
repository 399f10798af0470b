#include "compiler/frontend/model_builder/model_builder.h"

#include "compiler/frontend/model_builder/mobilenet_builder.h"
#include "compiler/frontend/model_builder/resnet_builder.h"
#include "compiler/frontend/model_builder/transformer_builder.h"
#include "compiler/frontend/model_builder/vgg_builder.h"

namespace polyarch::frontend {

namespace {

struct FamilyBuilder {
  const ModelConfig& model;

  ir::Graph operator()(const TransformerConfig& config) const {
    return build_transformer(model, config);
  }
  ir::Graph operator()(const ResnetConfig& config) const { return build_resnet(model, config); }
  ir::Graph operator()(const MobilenetV2Config& config) const {
    return build_mobilenet_v2(model, config);
  }
  ir::Graph operator()(const Vgg16Config& config) const { return build_vgg16(model, config); }
};

}  // namespace

ir::Graph build_model(const ModelConfig& config) {
  if (config.precision && config.precision->target && !config.dtype) {
    // The precision's type is the model's: its tensors are built in it, then the pass gives
    // each kind its type and the weights and KV cache their storage.
    ModelConfig typed = config;
    typed.dtype = config.precision->target;
    return build_model(typed);
  }
  ir::Graph graph = std::visit(FamilyBuilder{config}, config.family);
  if (config.precision) passes::PrecisionPass(*config.precision).run(graph);
  return graph;
}

ir::Graph model_graph_from_config(const ConfigNode& root, const std::string& default_name) {
  return build_model(read_model_config(root, default_name));
}

ir::Graph load_model(const std::filesystem::path& path) {
  return model_graph_from_config(load_config_with_base(path), path.stem().string());
}

}  // namespace polyarch::frontend
