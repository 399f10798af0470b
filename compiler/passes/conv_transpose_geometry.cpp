#include "compiler/passes/conv_transpose_geometry.h"

#include <algorithm>

#include "compiler/passes/onnx_node.h"

namespace polyarch::passes {

// ONNX ConvTranspose: the full result of an axis has stride*(in-1) + output_padding +
// (kernel-1)*dilation + 1 positions. Explicit pads cut pads[begin] and pads[end] from it. With
// output_shape or SAME_* auto-padding (output in*stride) the total cut is what the full result
// exceeds the output by, its smaller half at the beginning for SAME_UPPER and at the end
// otherwise; an output larger than the full result extends it with zeros at the end (as the
// operator's backend test test_convtranspose_output_shape expects).
std::vector<TransposedAxis> conv_transpose_axes(const ir::Op& op, const ir::OnnxNodeAttrs& node,
                                                const std::vector<int64_t>& input,
                                                const std::vector<int64_t>& kernel) {
  const std::size_t spatial = input.size() - 2;
  const std::vector<int64_t> strides =
      ints_attribute(node, "strides", std::vector<int64_t>(spatial, 1));
  const std::vector<int64_t> dilations =
      ints_attribute(node, "dilations", std::vector<int64_t>(spatial, 1));
  const std::vector<int64_t> output_padding =
      ints_attribute(node, "output_padding", std::vector<int64_t>(spatial, 0));
  const std::vector<int64_t> pads =
      ints_attribute(node, "pads", std::vector<int64_t>(2 * spatial, 0));
  std::vector<int64_t> output_shape = ints_attribute(node, "output_shape");
  if (output_shape.size() == spatial + 2)
    output_shape.erase(output_shape.begin(), output_shape.begin() + 2);
  const std::string auto_pad = string_attribute(node, "auto_pad", "NOTSET");
  if (kernel.size() != spatial || strides.size() != spatial || dilations.size() != spatial ||
      output_padding.size() != spatial || pads.size() != 2 * spatial ||
      (!output_shape.empty() && output_shape.size() != spatial)) {
    node_error(op, "ConvTranspose attributes do not match the input's " + std::to_string(spatial) +
                       " spatial axes");
  }
  std::vector<TransposedAxis> axes;
  for (std::size_t i = 0; i < spatial; ++i) {
    TransposedAxis axis{input[i + 2], kernel[i], strides[i], dilations[i], 0, 0};
    if (axis.stride <= 0 || axis.dilation <= 0) {
      node_error(op, "ConvTranspose strides and dilations must be > 0");
    }
    const int64_t full =
        axis.stride * (axis.in - 1) + output_padding[i] + (axis.kernel - 1) * axis.dilation + 1;
    const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
    if (!output_shape.empty() || same) {
      axis.out = !output_shape.empty() ? output_shape[i] : axis.in * axis.stride;
      const int64_t total = std::max<int64_t>(0, full - axis.out);
      axis.pad_begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    } else {
      const bool valid = auto_pad == "VALID";
      axis.pad_begin = valid ? 0 : pads[i];
      axis.out = full - (valid ? 0 : pads[i] + pads[i + spatial]);
    }
    if (axis.out <= 0) node_error(op, "ConvTranspose output would be empty");
    axes.push_back(axis);
  }
  return axes;
}

}  // namespace polyarch::passes
