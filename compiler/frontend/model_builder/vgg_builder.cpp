#include "compiler/frontend/model_builder/vgg_builder.h"

#include "compiler/frontend/model_builder/cnn_layers.h"

namespace polyarch::frontend {

namespace {

// Convolution widths of configuration "D"; 0 is a max pool (torchvision cfgs["D"]'s "M").
constexpr int64_t kFeatures[] = {64, 64,  0,   128, 128, 0,   256, 256, 256,
                                 0,  512, 512, 512, 0,   512, 512, 512, 0};
constexpr int64_t kClassifierMap = 7;
constexpr int64_t kClassifierWidth = 4096;

}  // namespace

ir::Graph build_vgg16(const ModelConfig& model, const Vgg16Config& config) {
  ModelGraph graph(model);
  ir::NodeId x = image_input(graph, config.input.batch, config.input.image);
  // Names count torchvision's Sequential indices: each conv is followed by its ReLU.
  int64_t index = 0;
  for (int64_t width : kFeatures) {
    const std::string name = "features." + std::to_string(index);
    if (width == 0) {
      x = pool(graph, name, x, ir::PoolKind::kMax, 2, 2, 0);
      index += 1;
    } else {
      x = conv(graph, name, x, {width, 3, 1, 1});
      x = relu(graph, "features." + std::to_string(index + 1), x);
      index += 2;
    }
  }
  const int64_t map = graph.shape(x)[2];
  if (map != kClassifierMap) {
    const int64_t window = map / kClassifierMap;
    x = pool(graph, "avgpool", x, ir::PoolKind::kAvg, window, window, 0);
  }
  x = flatten(graph, "flatten", x);
  x = relu(graph, "classifier.1", linear(graph, "classifier.0", x, kClassifierWidth, true));
  x = relu(graph, "classifier.4", linear(graph, "classifier.3", x, kClassifierWidth, true));
  const ir::NodeId logits = linear(graph, "classifier.6", x, config.input.classes, true);
  return std::move(graph).finish(logits);
}

}  // namespace polyarch::frontend
