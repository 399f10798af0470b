// The kernels of NonMaxSuppression, Unique and MaxUnpool, whose results' sizes depend on the
// values: each result must come out as the model declares it.
#include <map>

#include "compiler/interp/imported_call.h"
#include "compiler/interp/kernels_selection.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::interp {

namespace {

// Optional scalar operand i's value, or `fallback` when it is omitted.
float scalar_or(const ImportedOpCall& call, std::size_t i, float fallback) {
  const DenseTensor* value = optional_operand(call, i);
  if (value == nullptr) return fallback;
  if (value->size() != 1) fail(call, "operand " + std::to_string(i) + " is not a scalar");
  return value->values[0];
}

std::vector<DenseTensor> run_non_max_suppression(const ImportedOpCall& call) {
  const DenseTensor& boxes = operand(call, 0);
  const DenseTensor& scores = operand(call, 1);
  if (boxes.shape.size() != 3 || boxes.shape[2] != 4 || scores.shape.size() != 3 ||
      scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1]) {
    fail(call, "boxes " + passes::shape_string(boxes.shape) + " and scores " +
                   passes::shape_string(scores.shape) +
                   " are not [batch, boxes, 4] and [batch, classes, boxes]");
  }
  NmsOptions options;
  options.center_point_box = int_attr(call, "center_point_box", 0) != 0;
  options.max_per_class = static_cast<int64_t>(scalar_or(call, 2, 0.0f));
  options.iou_threshold = scalar_or(call, 3, 0.0f);
  if (optional_operand(call, 4) != nullptr) options.score_threshold = scalar_or(call, 4, 0.0f);
  return as_declared(call, non_max_suppression(boxes, scores, options));
}

std::vector<DenseTensor> run_unique(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  std::optional<int64_t> axis;
  if (call.node.attributes.count("axis") > 0) {
    axis = axis_of(call, int_attr(call, "axis", 0), input.shape.size());
  }
  std::vector<DenseTensor> results = unique(input, axis, int_attr(call, "sorted", 1) != 0);
  results.resize(call.results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].shape != call.results[i]->shape) {
      fail(call, "computes result " + std::to_string(i) + " of shape " +
                     passes::shape_string(results[i].shape) +
                     " from its operand's values, but the model declares " +
                     passes::shape_string(call.results[i]->shape));
    }
  }
  return results;
}

// The unpooled shape without output_shape: (in - 1) * stride + kernel - pads on each axis.
Shape unpooled_shape(const ImportedOpCall& call, const Shape& input) {
  const std::size_t spatial = input.size() - 2;
  const Shape kernel = passes::ints_attribute(call.node, "kernel_shape");
  const Shape strides = passes::ints_attribute(call.node, "strides", Shape(spatial, 1));
  const Shape pads = passes::ints_attribute(call.node, "pads", Shape(2 * spatial, 0));
  if (kernel.size() != spatial || strides.size() != spatial || pads.size() != 2 * spatial) {
    fail(call, "kernel_shape, strides and pads do not match the input");
  }
  Shape shape = {input[0], input[1]};
  for (std::size_t axis = 0; axis < spatial; ++axis) {
    shape.push_back((input[axis + 2] - 1) * strides[axis] + kernel[axis] - pads[axis] -
                    pads[axis + spatial]);
  }
  return shape;
}

// The indices point into the unpooled shape (MaxPool's input); a larger output_shape keeps
// each value at the same coordinates, as ONNX's backend test places them.
std::vector<DenseTensor> run_max_unpool(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const Shape& output = call.results.at(0)->shape;
  const Shape unpooled = unpooled_shape(call, input.shape);
  DenseTensor indices = operand(call, 1);
  if (indices.shape != input.shape || output.size() != unpooled.size()) {
    fail(call, "indices or output_shape do not match the input's shape");
  }
  const std::vector<int64_t> from = row_major_strides(unpooled);
  const std::vector<int64_t> to = row_major_strides(output);
  for (float& index : indices.values) {
    auto rest = static_cast<int64_t>(index);
    if (index < 0 || rest >= ir::element_count(unpooled)) {
      fail(call, "index " + std::to_string(rest) + " is outside " + passes::shape_string(unpooled));
    }
    int64_t placed = 0;
    for (std::size_t axis = 0; axis < unpooled.size(); ++axis) {
      const int64_t coordinate = rest / from[axis];
      rest %= from[axis];
      if (coordinate >= output[axis]) {
        fail(call, "output_shape " + passes::shape_string(output) + " is smaller than " +
                       passes::shape_string(unpooled));
      }
      placed += coordinate * to[axis];
    }
    index = static_cast<float>(placed);
  }
  return {max_unpool(input, indices, output)};
}

const std::map<std::string, ImportedKernel>& selection_kernels() {
  static const std::map<std::string, ImportedKernel> table = {
      {"NonMaxSuppression", run_non_max_suppression},
      {"Unique", run_unique},
      {"MaxUnpool", run_max_unpool},
  };
  return table;
}

}  // namespace

ImportedKernel selection_kernel(const std::string& op_type) {
  const auto found = selection_kernels().find(op_type);
  return found == selection_kernels().end() ? nullptr : found->second;
}

}  // namespace polyarch::interp
