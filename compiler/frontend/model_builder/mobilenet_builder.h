#pragma once
// torchvision MobileNetV2 (Sandler et al. 2018, "MobileNetV2: Inverted Residuals and Linear
// Bottlenecks"; torchvision mobilenetv2.py): a 3x3 stem, 17 inverted residual blocks (1x1
// expand, 3x3 depthwise, linear 1x1 project, a residual add where shapes allow), a 1x1 conv to
// 1280 channels, then the classifier. Channels scale by `width` and round to multiples of 8
// as torchvision's _make_divisible does. Op names: features.I.{expand, expand_relu6,
// depthwise, depthwise_relu6, project, add}; ReLU6 is an elementwise clip (cnn_layers.h).
#include "compiler/frontend/model_builder/model_config.h"
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::Graph build_mobilenet_v2(const ModelConfig& model, const MobilenetV2Config& config);

// torchvision's _make_divisible: the nearest multiple of `divisor` (at least `divisor`), raised
// by one step when rounding down lost more than 10%.
int64_t make_divisible(double value, int64_t divisor);

}  // namespace polyarch::frontend
