// Shape rules of ONNX's compute operators: Conv, pooling, Gemm, MatMul and reductions.
#include <map>

#include "base/checked_math.h"
#include "compiler/passes/conv_transpose_geometry.h"
#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

namespace {

// One spatial axis of a convolution or pool window, following the ONNX operator docs:
// out = floor((in + pads - dilation*(kernel-1) - 1) / stride) + 1 (ceil with ceil_mode);
// SAME_* auto-padding gives ceil(in / stride), VALID no padding.
int64_t window_output(const ShapeContext& context, int64_t in, int64_t kernel, int64_t stride,
                      int64_t dilation, int64_t pad_total, bool ceil_mode) {
  const std::string auto_pad = string_attribute(context.node(), "auto_pad", "NOTSET");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") return ceil_div(in, stride);
  if (auto_pad == "VALID") pad_total = 0;
  const int64_t span =
      checked_add(checked_mul(dilation, kernel - 1, "window span"), 1, "window span");
  const int64_t room = checked_add(in, pad_total, "padded input") - span;
  if (room < 0) {
    context.fail("window " + std::to_string(span) + " is larger than the padded input " +
                 std::to_string(in + pad_total));
  }
  return (ceil_mode ? ceil_div(room, stride) : room / stride) + 1;
}

// Spatial output dims of input [N, C, spatial...] for the window `kernel`.
Shape spatial_output(const ShapeContext& context, const Shape& input, const Shape& kernel,
                     bool ceil_mode) {
  const std::size_t spatial = input.size() - 2;
  if (kernel.size() != spatial) {
    context.fail("kernel " + shape_string(kernel) + " does not match input " + shape_string(input));
  }
  const Shape strides = context.ints_attr("strides", Shape(spatial, 1));
  const Shape dilations = context.ints_attr("dilations", Shape(spatial, 1));
  const Shape pads = context.ints_attr("pads", Shape(2 * spatial, 0));
  if (strides.size() != spatial || dilations.size() != spatial || pads.size() != 2 * spatial) {
    context.fail("strides, dilations or pads do not match the " + std::to_string(spatial) +
                 " spatial axes");
  }
  Shape output;
  for (std::size_t i = 0; i < spatial; ++i) {
    if (strides[i] <= 0 || dilations[i] <= 0) context.fail("strides and dilations must be > 0");
    output.push_back(window_output(context, input[i + 2], kernel[i], strides[i], dilations[i],
                                   pads[i] + pads[i + spatial], ceil_mode));
  }
  return output;
}

InferredResults conv(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const Shape& input = context.shape(0);
  const Shape& weight = context.shape(1);
  if (input.size() < 3 || weight.size() != input.size()) {
    context.fail("input " + shape_string(input) + " and weight " + shape_string(weight) +
                 " are not N-C-spatial tensors of one rank");
  }
  const int64_t groups = context.int_attr("group", 1);
  if (groups <= 0 || input[1] != checked_mul(weight[1], groups, "conv channels")) {
    context.fail("input channels " + std::to_string(input[1]) + " do not match weight " +
                 shape_string(weight) + " with group=" + std::to_string(groups));
  }
  const Shape kernel = context.ints_attr("kernel_shape", Shape(weight.begin() + 2, weight.end()));
  Shape output = {input[0], weight[0]};
  for (int64_t dim : spatial_output(context, input, kernel, false)) output.push_back(dim);
  return context.same_for_all(output, context.dtype(0));
}

// ConvTranspose: weight [C, M/group, kernel...], result [N, M, conv_transpose_axes' sizes].
InferredResults conv_transpose(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const Shape& input = context.shape(0);
  const Shape& weight = context.shape(1);
  const int64_t groups = context.int_attr("group", 1);
  if (input.size() < 3 || weight.size() != input.size() || groups <= 0 || input[1] != weight[0] ||
      input[1] % groups != 0) {
    context.fail("input " + shape_string(input) + " and weight " + shape_string(weight) +
                 " with group=" + std::to_string(groups) +
                 " do not fit ([N, C, ...] and [C, M/group, ...])");
  }
  const Shape kernel = context.ints_attr("kernel_shape", Shape(weight.begin() + 2, weight.end()));
  Shape output = {input[0], checked_mul(weight[1], groups, "output channels")};
  for (const TransposedAxis& axis :
       conv_transpose_axes(context.op(), context.node(), input, kernel)) {
    output.push_back(axis.out);
  }
  return context.same_for_all(output, context.dtype(0));
}

InferredResults pool(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  if (input.size() < 3) context.fail("input " + shape_string(input) + " has no spatial axes");
  if (!context.has_attr("kernel_shape")) context.fail("has no kernel_shape");
  Shape output = {input[0], input[1]};
  const bool ceil_mode = context.int_attr("ceil_mode", 0) != 0;
  for (int64_t dim : spatial_output(context, input, context.ints_attr("kernel_shape"), ceil_mode)) {
    output.push_back(dim);
  }
  std::vector<TypedShape> results = {{output, context.dtype(0)}};
  if (context.result_count() > 1) results.push_back({output, ir::DType::kInt64});  // indices
  return results;
}

InferredResults global_pool(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  Shape output = context.shape(0);
  if (output.size() < 3) context.fail("input " + shape_string(output) + " has no spatial axes");
  for (std::size_t i = 2; i < output.size(); ++i) output[i] = 1;
  return context.same_for_all(output, context.dtype(0));
}

InferredResults gemm(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const Shape& a = context.shape(0);
  const Shape& b = context.shape(1);
  if (a.size() != 2 || b.size() != 2) {
    context.fail("operands " + shape_string(a) + " and " + shape_string(b) + " must be matrices");
  }
  const bool trans_a = context.int_attr("transA", 0) != 0;
  const bool trans_b = context.int_attr("transB", 0) != 0;
  const int64_t m = trans_a ? a[1] : a[0];
  const int64_t k = trans_a ? a[0] : a[1];
  const int64_t k_b = trans_b ? b[1] : b[0];
  const int64_t n = trans_b ? b[0] : b[1];
  if (k != k_b) {
    context.fail("inner dimensions differ: A " + shape_string(a) +
                 (trans_a ? " (transposed)" : "") + ", B " + shape_string(b) +
                 (trans_b ? " (transposed)" : ""));
  }
  if (context.has(2) && !broadcast_shapes(context.shape(2), {m, n})) {
    context.fail("bias " + shape_string(context.shape(2)) + " does not broadcast to [" +
                 std::to_string(m) + "," + std::to_string(n) + "]");
  }
  return context.same_for_all({m, n}, context.dtype(0));
}

// numpy.matmul: 1-D operands gain a unit axis that the result drops again; batch axes broadcast.
InferredResults matmul(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  Shape a = context.shape(0);
  Shape b = context.shape(1);
  if (a.empty() || b.empty()) context.fail("operands must not be scalars");
  const bool a_vector = a.size() == 1;
  const bool b_vector = b.size() == 1;
  if (a_vector) a.insert(a.begin(), 1);
  if (b_vector) b.push_back(1);
  if (a.back() != b[b.size() - 2]) {
    context.fail("inner dimensions differ: " + shape_string(context.shape(0)) + " x " +
                 shape_string(context.shape(1)));
  }
  const std::optional<Shape> batch =
      broadcast_shapes(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
  if (!batch) {
    context.fail("batch dimensions of " + shape_string(context.shape(0)) + " and " +
                 shape_string(context.shape(1)) + " do not broadcast");
  }
  Shape output = *batch;
  if (!a_vector) output.push_back(a[a.size() - 2]);
  if (!b_vector) output.push_back(b.back());
  return context.same_for_all(output, context.dtype(0));
}

// Reductions take their axes from an attribute, or (ReduceSum from opset 13, the others from
// 18) from a second operand; no axes means all of them unless noop_with_empty_axes.
InferredResults reduce(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  std::vector<int64_t> axes = context.ints_attr("axes");
  if (context.has(1)) {
    const auto values = context.int_values(1);
    if (!values) return std::nullopt;
    axes = *values;
  }
  const bool keep_dims = context.int_attr("keepdims", 1) != 0;
  if (axes.empty() && context.int_attr("noop_with_empty_axes", 0) != 0) {
    return context.same_for_all(input, context.dtype(0));
  }
  std::vector<bool> reduced(input.size(), axes.empty());
  for (int64_t axis : axes) {
    reduced[static_cast<std::size_t>(context.axis(axis, context.rank(0)))] = true;
  }
  Shape output;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (!reduced[i]) {
      output.push_back(input[i]);
    } else if (keep_dims) {
      output.push_back(1);
    }
  }
  return context.same_for_all(output, context.dtype(0));
}

// ArgMax and ArgMin: int64 indices along one axis, which keepdims keeps as 1.
InferredResults arg_reduce(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  Shape output = context.shape(0);
  const auto axis =
      static_cast<std::size_t>(context.axis(context.int_attr("axis", 0), context.rank(0)));
  if (context.int_attr("keepdims", 1) != 0) {
    output[axis] = 1;
  } else {
    output.erase(output.begin() + static_cast<std::ptrdiff_t>(axis));
  }
  return context.same_for_all(output, ir::DType::kInt64);
}

// GridSample: input [N, C, H, W] sampled at grid [N, H_out, W_out, 2], result [N, C, H_out,
// W_out].
InferredResults grid_sample(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const Shape& input = context.shape(0);
  const Shape& grid = context.shape(1);
  if (input.size() != 4 || grid.size() != 4 || grid[0] != input[0] || grid[3] != 2) {
    context.fail("input " + shape_string(input) + " and grid " + shape_string(grid) +
                 " are not [N, C, H, W] and [N, H_out, W_out, 2]");
  }
  return context.same_for_all({input[0], input[1], grid[1], grid[2]}, context.dtype(0));
}

const std::map<std::string, ShapeRule>& nn_rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"Conv", conv},
      {"ConvTranspose", conv_transpose},
      {"MaxPool", pool},
      {"AveragePool", pool},
      {"GlobalAveragePool", global_pool},
      {"GlobalMaxPool", global_pool},
      {"Gemm", gemm},
      {"MatMul", matmul},
      {"ReduceMean", reduce},
      {"ReduceSum", reduce},
      {"ReduceMax", reduce},
      {"ReduceMin", reduce},
      {"ReduceProd", reduce},
      {"ReduceL1", reduce},
      {"ReduceL2", reduce},
      {"ReduceSumSquare", reduce},
      {"ReduceLogSum", reduce},
      {"ReduceLogSumExp", reduce},
      {"ArgMax", arg_reduce},
      {"ArgMin", arg_reduce},
      {"GridSample", grid_sample},
  };
  return table;
}

}  // namespace

ShapeRule nn_shape_rule(const std::string& op_type) {
  const auto found = nn_rules().find(op_type);
  return found == nn_rules().end() ? nullptr : found->second;
}

std::vector<std::string> nn_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : nn_rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
