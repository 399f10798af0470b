#pragma once
// Layers the CNN builders share, as an inference export of a torchvision model lowers them.
// Batch norm is folded into the convolution before it, as inference runtimes and
// torch.onnx.export's constant folding do: its scale goes into the filters, its shift becomes
// the convolution's bias. So every convolution has a bias (VGG's have one anyway) and no
// BatchNormalization op remains. ReLU is an elementwise relu, ReLU6 an elementwise clip (the
// ONNX Clip that ReLU6 exports as), dropout is the identity and vanishes.
#include <string>

#include "compiler/frontend/model_builder/model_graph.h"

namespace polyarch::frontend {

struct ConvShape {
  int64_t out_channels = 0;
  int64_t kernel = 1;  // square
  int64_t stride = 1;
  int64_t pad = 0;
  int64_t groups = 1;
};

// The image batch, `input` [batch, 3, image, image].
ir::NodeId image_input(ModelGraph& graph, int64_t batch, int64_t image);

// A convolution of x [n, c, h, w] with bias; result [n, out_channels, out_h, out_w].
ir::NodeId conv(ModelGraph& graph, const std::string& name, ir::NodeId input,
                const ConvShape& shape);

// An elementwise ReLU.
ir::NodeId relu(ModelGraph& graph, const std::string& name, ir::NodeId input);

// A square max or average pool with one stride for both axes.
ir::NodeId pool(ModelGraph& graph, const std::string& name, ir::NodeId input, ir::PoolKind kind,
                int64_t window, int64_t stride, int64_t pad);

// torchvision's classifier head: global average pool `avgpool`, `flatten`, then the `fc` GEMM
// (with bias) to `classes` outputs.
ir::NodeId classifier_head(ModelGraph& graph, ir::NodeId input, int64_t classes);

}  // namespace polyarch::frontend
