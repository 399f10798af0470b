#pragma once
// torchvision ResNet-18/34/50/101/152 (He et al. 2016, "Deep Residual Learning"; torchvision's
// v1.5 puts a bottleneck's stride on its 3x3 convolution). Op names follow torchvision's
// modules: conv1, relu, maxpool, layerL.B.{conv1, relu1, conv2, relu2, conv3, downsample, add,
// relu3}, avgpool, flatten, fc. Batch norm is folded into the convolutions (cnn_layers.h).
#include "compiler/frontend/model_builder/model_config.h"
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::Graph build_resnet(const ModelConfig& model, const ResnetConfig& config);

}  // namespace polyarch::frontend
