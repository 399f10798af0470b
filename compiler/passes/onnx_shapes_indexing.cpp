// Shape rules of ONNX's indexing and rearranging operators (scatters and gathers by index
// tensors, Trilu, CumSum, Hardmax, DepthToSpace, Tile, Pad, OneHot, EyeLike, CastLike, LRN) and
// of the two losses.
#include <cmath>
#include <map>

#include "base/checked_math.h"
#include "compiler/frontend/onnx/element_type.h"
#include "compiler/passes/onnx_shape_rules.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

namespace {

// The first operand's shape and type: scatters, Trilu, CumSum, Hardmax, LRN.
InferredResults like_data(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  return context.same_for_all(context.shape(0), context.dtype(0));
}

InferredResults scatter(const ShapeContext& context) {
  context.require_operands(3);
  return like_data(context);
}

// data [..., batch_dims..., k axes, rest...] gathered by indices [batch..., tuples..., k]:
// the result is indices.shape[:-1] + data.shape[batch_dims + k:].
InferredResults gather_nd(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const Shape& data = context.shape(0);
  const Shape& indices = context.shape(1);
  const int64_t batch = context.int_attr("batch_dims", 0);
  if (indices.empty() || batch < 0 || batch + indices.back() > static_cast<int64_t>(data.size()) ||
      batch >= static_cast<int64_t>(indices.size())) {
    context.fail("indices " + shape_string(indices) + " with batch_dims=" + std::to_string(batch) +
                 " do not index data " + shape_string(data));
  }
  Shape output(indices.begin(), indices.end() - 1);
  output.insert(output.end(), data.begin() + batch + indices.back(), data.end());
  return context.same_for_all(output, context.dtype(0));
}

InferredResults trilu(const ShapeContext& context) {
  if (context.shape_known(0) && context.rank(0) < 2) {
    context.fail("input " + shape_string(context.shape(0)) + " has fewer than two axes");
  }
  return like_data(context);
}

InferredResults depth_to_space(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  const int64_t block = context.int_attr("blocksize", 0);
  const bool to_space = context.node().op_type == "DepthToSpace";
  if (input.size() != 4 || block <= 0 ||
      (to_space ? input[1] % (block * block) != 0
                : input[2] % block != 0 || input[3] % block != 0)) {
    context.fail("blocksize " + std::to_string(block) + " does not divide input " +
                 shape_string(input));
  }
  const int64_t area = block * block;
  const Shape output = to_space
                           ? Shape{input[0], input[1] / area, input[2] * block, input[3] * block}
                           : Shape{input[0], input[1] * area, input[2] / block, input[3] / block};
  return context.same_for_all(output, context.dtype(0));
}

// Tile and Pad take their sizes from an operand: unknown until it is a constant (the model's
// declared result shape stands in, and the interpreter holds the values to it).
InferredResults tile(const ShapeContext& context) {
  context.require_operands(2);
  const auto repeats = context.int_values(1);
  if (!context.shape_known(0) || !repeats) return std::nullopt;
  Shape output = context.shape(0);
  if (repeats->size() != output.size()) {
    context.fail("repeats " + shape_string(*repeats) + " do not match input " +
                 shape_string(output));
  }
  for (std::size_t i = 0; i < output.size(); ++i) {
    if ((*repeats)[i] < 0) context.fail("repeats " + shape_string(*repeats) + " are negative");
    output[i] = checked_mul(output[i], (*repeats)[i], "tiled dimension");
  }
  return context.same_for_all(output, context.dtype(0));
}

InferredResults pad(const ShapeContext& context) {
  context.require_operands(2);
  const auto pads = context.int_values(1);
  if (!context.shape_known(0) || !pads) return std::nullopt;
  Shape output = context.shape(0);
  std::vector<int64_t> axes;
  if (context.has(3)) {
    const auto named = context.int_values(3);
    if (!named) return std::nullopt;
    for (int64_t axis : *named) axes.push_back(context.axis(axis, context.rank(0)));
  } else {
    for (std::size_t axis = 0; axis < output.size(); ++axis) axes.push_back(int64_t(axis));
  }
  if (pads->size() != 2 * axes.size()) {
    context.fail("pads " + shape_string(*pads) + " do not give a begin and an end for " +
                 std::to_string(axes.size()) + " axes");
  }
  for (std::size_t i = 0; i < axes.size(); ++i) {
    int64_t& dim = output[static_cast<std::size_t>(axes[i])];
    dim += (*pads)[i] + (*pads)[i + axes.size()];
    if (dim < 0) context.fail("pads " + shape_string(*pads) + " crop more than the input has");
  }
  return context.same_for_all(output, context.dtype(0));
}

// Resize: the sizes operand, or the input's dims times the scales (rounded down); while neither
// is a constant, the model's declared result shape stands in.
InferredResults resize(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  const auto present = [&](std::size_t i) {
    return context.has(i) && context.shape_known(i) && ir::element_count(context.shape(i)) > 0;
  };
  Shape output;
  if (present(3)) {
    const auto sizes = context.int_values(3);
    if (!sizes) return std::nullopt;
    output = *sizes;
  } else if (present(2)) {
    const std::optional<Values> scales = read_values(context.operand(2));
    if (!scales) return std::nullopt;
    for (std::size_t d = 0; d < input.size() && d < static_cast<std::size_t>(scales->size()); ++d) {
      output.push_back(
          static_cast<int64_t>(std::floor(scales->real(d) * static_cast<double>(input[d]))));
    }
  } else {
    context.fail("needs scales or sizes");
  }
  if (output.size() != input.size()) {
    context.fail("scales or sizes " + shape_string(output) + " do not give one per axis of " +
                 shape_string(input));
  }
  return context.same_for_all(output, context.dtype(0));
}

// TopK: k along the axis, values and int64 indices.
InferredResults top_k(const ShapeContext& context) {
  context.require_operands(2);
  const auto k = context.int_values(1);
  if (!context.shape_known(0) || !k) return std::nullopt;
  Shape output = context.shape(0);
  const auto axis =
      static_cast<std::size_t>(context.axis(context.int_attr("axis", -1), context.rank(0)));
  if (k->size() != 1 || (*k)[0] < 0 || (*k)[0] > output[axis]) {
    context.fail("K " + shape_string(*k) + " is not one value within axis " + std::to_string(axis) +
                 " of " + shape_string(output));
  }
  output[axis] = (*k)[0];
  return std::vector<TypedShape>{{output, context.dtype(0)}, {output, ir::DType::kInt64}};
}

// Compress keeps the slices whose condition is true: known when the condition is a constant.
InferredResults compress(const ShapeContext& context) {
  context.require_operands(2);
  const auto condition = context.int_values(1);
  if (!context.shape_known(0) || !condition) return std::nullopt;
  Shape output = context.shape(0);
  int64_t kept = 0;
  for (int64_t value : *condition) kept += value != 0 ? 1 : 0;
  if (!context.has_attr("axis")) return context.same_for_all({kept}, context.dtype(0));
  output[static_cast<std::size_t>(context.axis(context.int_attr("axis", 0), context.rank(0)))] =
      kept;
  return context.same_for_all(output, context.dtype(0));
}

// NonZero's count depends on the values: the model's declared shape stands in.
InferredResults non_zero(const ShapeContext& context) {
  context.require_operands(1);
  return std::nullopt;
}

InferredResults dynamic_quantize_linear(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  return std::vector<TypedShape>{
      {context.shape(0), ir::DType::kUint8}, {{}, ir::DType::kFp32}, {{}, ir::DType::kUint8}};
}

InferredResults det(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  if (input.size() < 2 || input[input.size() - 1] != input[input.size() - 2]) {
    context.fail("input " + shape_string(input) + " is not a stack of square matrices");
  }
  return context.same_for_all(Shape(input.begin(), input.end() - 2), context.dtype(0));
}

InferredResults one_hot(const ShapeContext& context) {
  context.require_operands(3);
  const auto depth = context.int_values(1);
  if (!context.shapes_known() || !depth) return std::nullopt;
  if (depth->size() != 1 || (*depth)[0] <= 0) context.fail("depth must be one positive value");
  Shape output = context.shape(0);
  const int64_t axis = context.axis(context.int_attr("axis", -1), context.rank(0) + 1);
  output.insert(output.begin() + axis, (*depth)[0]);
  return context.same_for_all(output, context.dtype(2));
}

InferredResults eye_like(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  if (context.rank(0) != 2) context.fail("input " + shape_string(context.shape(0)) + " is not 2-D");
  ir::DType dtype = context.dtype(0);
  if (context.has_attr("dtype")) {
    const auto to = static_cast<int32_t>(context.int_attr("dtype", 1));
    const std::optional<ir::DType> named = frontend::onnx_import::dtype_of_element_type(to);
    if (!named) {
      context.fail("dtype " + frontend::onnx_import::element_type_name(to) + " has no IR type");
    }
    dtype = *named;
  }
  return context.same_for_all(context.shape(0), dtype);
}

// CastLike: the first operand's shape in the second's type.
InferredResults cast_like(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shape_known(0)) return std::nullopt;
  return context.same_for_all(context.shape(0), context.dtype(1));
}

// The losses: [N, C, d...] scores and [N, d...] targets; the loss has the targets' shape
// without a reduction and is a scalar with one. SoftmaxCrossEntropyLoss's optional second
// result is the log-probabilities, shaped as the scores.
InferredResults loss(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const Shape& scores = context.shape(0);
  const Shape& target = context.shape(1);
  Shape expected_target = scores;
  if (scores.size() >= 2) expected_target.erase(expected_target.begin() + 1);
  if (scores.size() < 2 || target != expected_target) {
    context.fail("target " + shape_string(target) + " does not match scores " +
                 shape_string(scores) + " without their class axis");
  }
  if (context.has(2) && context.shape(2) != Shape{scores[1]}) {
    context.fail("weight " + shape_string(context.shape(2)) + " is not one per class");
  }
  const std::string reduction = string_attribute(context.node(), "reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    context.fail("reduction '" + reduction + "' is not one of none, sum, mean");
  }
  std::vector<TypedShape> results = {{reduction == "none" ? target : Shape{}, context.dtype(0)}};
  if (context.result_count() > 1) results.push_back({scores, context.dtype(0)});
  return results;
}

const std::map<std::string, ShapeRule>& indexing_rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"ScatterElements", scatter},
      {"ScatterND", scatter},
      {"GatherND", gather_nd},
      {"Trilu", trilu},
      {"CumSum", like_data},
      {"Hardmax", like_data},
      {"LRN", like_data},
      {"InstanceNormalization", like_data},
      {"DepthToSpace", depth_to_space},
      {"SpaceToDepth", depth_to_space},
      {"Tile", tile},
      {"Pad", pad},
      {"OneHot", one_hot},
      {"TopK", top_k},
      {"Compress", compress},
      {"NonZero", non_zero},
      {"ReverseSequence", like_data},
      {"DynamicQuantizeLinear", dynamic_quantize_linear},
      {"MeanVarianceNormalization", like_data},
      {"Det", det},
      {"Resize", resize},
      {"EyeLike", eye_like},
      {"CastLike", cast_like},
      {"NegativeLogLikelihoodLoss", loss},
      {"SoftmaxCrossEntropyLoss", loss},
  };
  return table;
}

}  // namespace

ShapeRule indexing_shape_rule(const std::string& op_type) {
  const auto found = indexing_rules().find(op_type);
  return found == indexing_rules().end() ? nullptr : found->second;
}

std::vector<std::string> indexing_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : indexing_rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
