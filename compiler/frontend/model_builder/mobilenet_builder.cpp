#include "compiler/frontend/model_builder/mobilenet_builder.h"

#include <algorithm>
#include <cmath>

#include "compiler/frontend/model_builder/cnn_layers.h"

namespace polyarch::frontend {

namespace {

constexpr int64_t kChannelMultiple = 8;

// One row of torchvision's inverted_residual_setting: expansion t, channels c, repeats n,
// first stride s.
struct StageSetting {
  int64_t expansion;
  int64_t channels;
  int64_t repeats;
  int64_t stride;
};

constexpr StageSetting kStages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                    {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};

ir::NodeId relu6(ModelGraph& graph, const std::string& name, ir::NodeId input) {
  return elementwise(graph, name, "clip", {input});
}

ir::NodeId inverted_residual(ModelGraph& graph, const std::string& prefix, ir::NodeId x,
                             int64_t out_channels, int64_t stride, int64_t expansion) {
  const int64_t in_channels = graph.shape(x)[1];
  const int64_t hidden = in_channels * expansion;
  ir::NodeId y = x;
  if (expansion != 1) {
    y = relu6(graph, prefix + ".expand_relu6",
              conv(graph, prefix + ".expand", y, {hidden, 1, 1, 0}));
  }
  y = relu6(graph, prefix + ".depthwise_relu6",
            conv(graph, prefix + ".depthwise", y, {hidden, 3, stride, 1, hidden}));
  y = conv(graph, prefix + ".project", y, {out_channels, 1, 1, 0});
  if (stride != 1 || in_channels != out_channels) return y;
  return elementwise(graph, prefix + ".add", "add", {x, y});
}

}  // namespace

int64_t make_divisible(double value, int64_t divisor) {
  const auto rounded_down =
      static_cast<int64_t>(value + static_cast<double>(divisor) / 2) / divisor * divisor;
  int64_t result = std::max(divisor, rounded_down);
  if (static_cast<double>(result) < 0.9 * value) result += divisor;
  return result;
}

ir::Graph build_mobilenet_v2(const ModelConfig& model, const MobilenetV2Config& config) {
  ModelGraph graph(model);
  ir::NodeId x = image_input(graph, config.input.batch, config.input.image);
  const int64_t stem_channels = make_divisible(32 * config.width, kChannelMultiple);
  x = relu6(graph, "features.0.relu6", conv(graph, "features.0.conv", x, {stem_channels, 3, 2, 1}));
  int64_t feature = 1;
  for (const StageSetting& stage : kStages) {
    const int64_t channels = make_divisible(stage.channels * config.width, kChannelMultiple);
    for (int64_t repeat = 0; repeat < stage.repeats; ++repeat) {
      x = inverted_residual(graph, "features." + std::to_string(feature++), x, channels,
                            repeat == 0 ? stage.stride : 1, stage.expansion);
    }
  }
  const int64_t last_channels =
      make_divisible(1280 * std::max(1.0, config.width), kChannelMultiple);
  const std::string last = "features." + std::to_string(feature);
  x = relu6(graph, last + ".relu6", conv(graph, last + ".conv", x, {last_channels, 1, 1, 0}));
  const ir::NodeId logits = classifier_head(graph, x, config.input.classes);
  return std::move(graph).finish(logits);
}

}  // namespace polyarch::frontend
