#include "compiler/frontend/model_builder/resnet_builder.h"

#include <array>

#include "compiler/frontend/model_builder/cnn_layers.h"

namespace polyarch::frontend {

namespace {

// Blocks per stage (torchvision resnet.py: _resnet(...) layers arguments).
std::array<int64_t, 4> blocks_per_stage(int64_t depth) {
  switch (depth) {
    case 18:
      return {2, 2, 2, 2};
    case 34:
    case 50:
      return {3, 4, 6, 3};
    case 101:
      return {3, 4, 23, 3};
    default:
      return {3, 8, 36, 3};
  }
}

// The shortcut: x itself, or a strided 1x1 convolution where the block changes shape.
ir::NodeId shortcut(ModelGraph& graph, const std::string& prefix, ir::NodeId x,
                    int64_t out_channels, int64_t stride) {
  if (stride == 1 && graph.shape(x)[1] == out_channels) return x;
  return conv(graph, prefix + ".downsample", x, {out_channels, 1, stride, 0});
}

ir::NodeId residual_out(ModelGraph& graph, const std::string& prefix, ir::NodeId branch,
                        ir::NodeId identity, const std::string& relu_name) {
  return relu(graph, prefix + relu_name,
              elementwise(graph, prefix + ".add", "add", {branch, identity}));
}

// ResNet-18/34: two 3x3 convolutions.
ir::NodeId basic_block(ModelGraph& graph, const std::string& prefix, ir::NodeId x, int64_t planes,
                       int64_t stride) {
  ir::NodeId y =
      relu(graph, prefix + ".relu1", conv(graph, prefix + ".conv1", x, {planes, 3, stride, 1}));
  y = conv(graph, prefix + ".conv2", y, {planes, 3, 1, 1});
  return residual_out(graph, prefix, y, shortcut(graph, prefix, x, planes, stride), ".relu2");
}

// ResNet-50/101/152: 1x1 reduce, 3x3 (strided), 1x1 expand to 4 * planes.
ir::NodeId bottleneck(ModelGraph& graph, const std::string& prefix, ir::NodeId x, int64_t planes,
                      int64_t stride) {
  constexpr int64_t kExpansion = 4;
  ir::NodeId y =
      relu(graph, prefix + ".relu1", conv(graph, prefix + ".conv1", x, {planes, 1, 1, 0}));
  y = relu(graph, prefix + ".relu2", conv(graph, prefix + ".conv2", y, {planes, 3, stride, 1}));
  y = conv(graph, prefix + ".conv3", y, {planes * kExpansion, 1, 1, 0});
  return residual_out(graph, prefix, y, shortcut(graph, prefix, x, planes * kExpansion, stride),
                      ".relu3");
}

}  // namespace

ir::Graph build_resnet(const ModelConfig& model, const ResnetConfig& config) {
  ModelGraph graph(model);
  ir::NodeId x = image_input(graph, config.input.batch, config.input.image);
  x = relu(graph, "relu", conv(graph, "conv1", x, {64, 7, 2, 3}));
  x = pool(graph, "maxpool", x, ir::PoolKind::kMax, 3, 2, 1);
  const std::array<int64_t, 4> blocks = blocks_per_stage(config.depth);
  for (std::size_t stage = 0; stage < blocks.size(); ++stage) {
    const int64_t planes = int64_t{64} << stage;
    for (int64_t block = 0; block < blocks[stage]; ++block) {
      const std::string prefix = "layer" + std::to_string(stage + 1) + "." + std::to_string(block);
      const int64_t stride = stage > 0 && block == 0 ? 2 : 1;
      x = config.depth >= 50 ? bottleneck(graph, prefix, x, planes, stride)
                             : basic_block(graph, prefix, x, planes, stride);
    }
  }
  const ir::NodeId logits = classifier_head(graph, x, config.input.classes);
  return std::move(graph).finish(logits);
}

}  // namespace polyarch::frontend
