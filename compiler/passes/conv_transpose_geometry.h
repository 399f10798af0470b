#pragma once
// The spatial geometry of an ONNX ConvTranspose: each output axis's size and the padding cut
// from its beginning, from the node's strides, dilations, pads, output_padding, output_shape
// and auto_pad. Shape inference and the interpreter's kernel both read it.
#include <cstdint>
#include <vector>

#include "compiler/ir/op.h"

namespace polyarch::passes {

struct TransposedAxis {
  int64_t in = 0;
  int64_t kernel = 0;
  int64_t stride = 1;
  int64_t dilation = 1;
  int64_t pad_begin = 0;  // output position 0 is position pad_begin of the full result
  int64_t out = 0;
};

// One entry per spatial axis of `input` ([N, C, spatial...]) with `kernel` the weight's spatial
// dims (or the kernel_shape attribute). A bad-input error naming the op for inconsistent
// attributes.
std::vector<TransposedAxis> conv_transpose_axes(const ir::Op& op, const ir::OnnxNodeAttrs& node,
                                                const std::vector<int64_t>& input,
                                                const std::vector<int64_t>& kernel);

}  // namespace polyarch::passes
