#pragma once
// torchvision VGG-16 (Simonyan and Zisserman 2015, configuration D; torchvision vgg.py, no
// batch norm): thirteen 3x3 convolutions with bias and ReLU in five stages, each closed by a
// 2x2 max pool, then three fully connected layers (25088 -> 4096 -> 4096 -> classes) with ReLU
// between; dropout is the identity at inference. The classifier reads a 7x7 map: at 224 the
// features are 7x7 already and torchvision's adaptive pool does nothing; at 224 * k it is an
// average pool with k x k windows. Op names follow torchvision's: features.I (each conv, ReLU
// and pool is one index), avgpool, flatten, classifier.0/.1 (fc, relu), ...
#include "compiler/frontend/model_builder/model_config.h"
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::Graph build_vgg16(const ModelConfig& model, const Vgg16Config& config);

}  // namespace polyarch::frontend
