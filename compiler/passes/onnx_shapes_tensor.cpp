// Shape rules of ONNX's data-movement and shape operators: Reshape, Transpose, Concat, Gather,
// Squeeze/Unsqueeze, Slice, Split, Expand, and the shape chain's Shape and ConstantOfShape.
#include <algorithm>
#include <cmath>
#include <map>

#include "base/checked_math.h"
#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

namespace {

int64_t product_of(const Shape& shape, std::size_t from, std::size_t to) {
  int64_t count = 1;
  for (std::size_t i = from; i < to; ++i) count = checked_mul(count, shape[i], "element count");
  return count;
}

// Reshape's target: 0 copies the input's dimension (unless allowzero), one -1 takes the rest.
InferredResults reshape(const ShapeContext& context) {
  context.require_operands(2);
  const auto target = context.int_values(1);
  if (!context.shape_known(0) || !target) return std::nullopt;
  const Shape& input = context.shape(0);
  const bool allow_zero = context.int_attr("allowzero", 0) != 0;
  Shape output = *target;
  std::optional<std::size_t> inferred;
  for (std::size_t i = 0; i < output.size(); ++i) {
    if (output[i] == 0 && !allow_zero) {
      if (i >= input.size())
        context.fail("target copies dimension " + std::to_string(i) + " of a rank-" +
                     std::to_string(input.size()) + " input");
      output[i] = input[i];
    } else if (output[i] == -1) {
      if (inferred) context.fail("target " + shape_string(*target) + " has more than one -1");
      inferred = i;
    } else if (output[i] < 0) {
      context.fail("target " + shape_string(*target) + " has a negative dimension");
    }
  }
  const int64_t elements = product_of(input, 0, input.size());
  if (inferred) {
    output[*inferred] = 1;
    const int64_t known = product_of(output, 0, output.size());
    if (known == 0 || elements % known != 0) {
      context.fail("cannot reshape " + shape_string(input) + " to " + shape_string(*target));
    }
    output[*inferred] = elements / known;
  }
  if (product_of(output, 0, output.size()) != elements) {
    context.fail("cannot reshape " + shape_string(input) + " (" + std::to_string(elements) +
                 " elements) to " + shape_string(output));
  }
  return context.same_for_all(output, context.dtype(0));
}

InferredResults flatten(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  const int64_t rank = context.rank(0);
  int64_t axis = context.int_attr("axis", 1);
  if (axis < -rank || axis > rank)
    context.fail("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += rank;
  const auto split = static_cast<std::size_t>(axis);
  return context.same_for_all({product_of(input, 0, split), product_of(input, split, input.size())},
                              context.dtype(0));
}

InferredResults transpose(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  Shape perm(input.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(perm.size() - 1 - i);
  perm = context.ints_attr("perm", perm);
  Shape sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (sorted.size() != input.size() || sorted[i] != static_cast<int64_t>(i)) {
      context.fail("perm " + shape_string(perm) + " is not a permutation of " +
                   std::to_string(input.size()) + " axes");
    }
  }
  Shape output;
  for (int64_t axis : perm) output.push_back(input[static_cast<std::size_t>(axis)]);
  return context.same_for_all(output, context.dtype(0));
}

InferredResults concat(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shapes_known()) return std::nullopt;
  Shape output = context.shape(0);
  const auto axis =
      static_cast<std::size_t>(context.axis(context.int_attr("axis", 0), context.rank(0)));
  for (std::size_t i = 1; i < context.operand_count(); ++i) {
    const Shape& next = context.shape(i);
    for (std::size_t d = 0; d < output.size(); ++d) {
      if (next.size() != output.size() || (d != axis && next[d] != output[d])) {
        context.fail("operand " + shape_string(next) + " does not match " +
                     shape_string(context.shape(0)) + " outside axis " + std::to_string(axis));
      }
    }
    output[axis] = checked_add(output[axis], next[axis], "concat dimension");
  }
  return context.same_for_all(output, context.dtype(0));
}

InferredResults gather(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const Shape& data = context.shape(0);
  const auto axis =
      static_cast<std::size_t>(context.axis(context.int_attr("axis", 0), context.rank(0)));
  Shape output(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(axis));
  for (int64_t dim : context.shape(1)) output.push_back(dim);
  output.insert(output.end(), data.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.end());
  return context.same_for_all(output, context.dtype(0));
}

InferredResults gather_elements(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  if (context.rank(0) != context.rank(1)) context.fail("data and indices differ in rank");
  return context.same_for_all(context.shape(1), context.dtype(0));
}

// Axes from the second operand (opset 13 on) or the attribute (earlier exports).
std::optional<std::vector<int64_t>> axes_operand(const ShapeContext& context) {
  if (context.has(1)) return context.int_values(1);
  return context.ints_attr("axes");
}

InferredResults unsqueeze(const ShapeContext& context) {
  context.require_operands(1);
  const auto axes = axes_operand(context);
  if (!context.shape_known(0) || !axes) return std::nullopt;
  const int64_t rank = context.rank(0) + static_cast<int64_t>(axes->size());
  std::vector<bool> inserted(static_cast<std::size_t>(rank), false);
  for (int64_t axis : *axes) {
    const auto position = static_cast<std::size_t>(context.axis(axis, rank));
    if (inserted[position]) context.fail("repeats axis " + std::to_string(axis));
    inserted[position] = true;
  }
  Shape output;
  std::size_t next = 0;
  for (bool unit : inserted) output.push_back(unit ? 1 : context.shape(0)[next++]);
  return context.same_for_all(output, context.dtype(0));
}

InferredResults squeeze(const ShapeContext& context) {
  context.require_operands(1);
  const auto axes = axes_operand(context);
  if (!context.shape_known(0) || !axes) return std::nullopt;
  const Shape& input = context.shape(0);
  std::vector<bool> removed(input.size(), false);
  for (std::size_t i = 0; i < input.size(); ++i) removed[i] = axes->empty() && input[i] == 1;
  for (int64_t axis : *axes) {
    const auto position = static_cast<std::size_t>(context.axis(axis, context.rank(0)));
    if (input[position] != 1) {
      context.fail("cannot squeeze axis " + std::to_string(axis) + " of " + shape_string(input));
    }
    removed[position] = true;
  }
  Shape output;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (!removed[i]) output.push_back(input[i]);
  }
  return context.same_for_all(output, context.dtype(0));
}

InferredResults shape_of(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  // Opset 15 added start/end, clamped like Python slices.
  const int64_t rank = context.rank(0);
  const auto clamp = [&](int64_t bound) {
    return std::clamp(bound < 0 ? bound + rank : bound, int64_t{0}, rank);
  };
  const int64_t start = clamp(context.int_attr("start", 0));
  const int64_t end = clamp(context.int_attr("end", rank));
  return context.same_for_all({std::max(int64_t{0}, end - start)}, ir::DType::kInt64);
}

InferredResults size_of(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  return context.same_for_all({}, ir::DType::kInt64);
}

// Elements a slice along one axis keeps, with ONNX's clamping of starts and ends.
int64_t slice_length(int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp(start, int64_t{0}, dim);
    end = std::clamp(end, int64_t{0}, dim);
    return end > start ? ceil_div(end - start, step) : 0;
  }
  start = std::clamp(start, int64_t{0}, dim - 1);
  end = std::clamp(end, int64_t{-1}, dim - 1);
  return start > end ? ceil_div(start - end, -step) : 0;
}

InferredResults slice(const ShapeContext& context) {
  context.require_operands(3);
  const auto starts = context.int_values(1);
  const auto ends = context.int_values(2);
  if (!context.shape_known(0) || !starts || !ends) return std::nullopt;
  const int64_t rank = context.rank(0);
  std::vector<int64_t> axes(starts->size());
  for (std::size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<int64_t>(i);
  std::vector<int64_t> steps(starts->size(), 1);
  if (context.has(3)) {
    if (auto values = context.int_values(3))
      axes = *values;
    else
      return std::nullopt;
  }
  if (context.has(4)) {
    if (auto values = context.int_values(4))
      steps = *values;
    else
      return std::nullopt;
  }
  if (ends->size() != starts->size() || axes.size() != starts->size() ||
      steps.size() != starts->size()) {
    context.fail("starts, ends, axes and steps differ in length");
  }
  Shape output = context.shape(0);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto axis = static_cast<std::size_t>(context.axis(axes[i], rank));
    if (steps[i] == 0) context.fail("has a zero step");
    output[axis] = slice_length(output[axis], (*starts)[i], (*ends)[i], steps[i]);
  }
  return context.same_for_all(output, context.dtype(0));
}

// Split sizes from the `split` operand (opset 13), the attribute (earlier), or equal parts
// (num_outputs in opset 18, or one per result) with a smaller last part.
InferredResults split(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  const auto axis =
      static_cast<std::size_t>(context.axis(context.int_attr("axis", 0), context.rank(0)));
  std::vector<int64_t> sizes = context.ints_attr("split");
  if (context.has(1)) {
    const auto values = context.int_values(1);
    if (!values) return std::nullopt;
    sizes = *values;
  }
  if (sizes.empty()) {
    const int64_t parts =
        context.int_attr("num_outputs", static_cast<int64_t>(context.result_count()));
    const int64_t part = ceil_div(input[axis], parts);
    for (int64_t left = input[axis]; left > 0; left -= part) sizes.push_back(std::min(part, left));
  }
  int64_t total = 0;
  for (int64_t size : sizes) total += size;
  if (sizes.size() != context.result_count() || total != input[axis]) {
    context.fail("split sizes " + shape_string(sizes) + " do not divide axis " +
                 std::to_string(axis) + " of " + shape_string(input) + " into " +
                 std::to_string(context.result_count()) + " results");
  }
  std::vector<TypedShape> results;
  for (int64_t size : sizes) {
    Shape part = input;
    part[axis] = size;
    results.push_back({part, context.dtype(0)});
  }
  return results;
}

InferredResults expand(const ShapeContext& context) {
  context.require_operands(2);
  const auto target = context.int_values(1);
  if (!context.shape_known(0) || !target) return std::nullopt;
  const std::optional<Shape> output = broadcast_shapes(context.shape(0), *target);
  if (!output) {
    context.fail("cannot expand " + shape_string(context.shape(0)) + " to " +
                 shape_string(*target));
  }
  return context.same_for_all(*output, context.dtype(0));
}

ir::DType value_attribute_dtype(const ShapeContext& context) {
  const auto found = context.node().attributes.find("value");
  if (found == context.node().attributes.end()) return ir::DType::kFp32;  // the ONNX default
  const auto* tensor = std::get_if<ir::Tensor>(&found->second);
  if (tensor == nullptr) context.fail("attribute 'value' is not a tensor");
  return tensor->dtype;
}

InferredResults constant_of_shape(const ShapeContext& context) {
  context.require_operands(1);
  const auto target = context.int_values(0);
  if (!target) return std::nullopt;
  for (int64_t dim : *target) {
    if (dim < 0) context.fail("shape " + shape_string(*target) + " has a negative dimension");
  }
  return context.same_for_all(*target, value_attribute_dtype(context));
}

// The importer already gave a Constant's result its value; this keeps shape inference total.
InferredResults constant(const ShapeContext& context) {
  for (const auto& [name, value] : context.node().attributes) {
    if (const auto* tensor = std::get_if<ir::Tensor>(&value)) {
      return context.same_for_all(tensor->shape, tensor->dtype);
    }
  }
  return std::nullopt;
}

InferredResults range(const ShapeContext& context) {
  context.require_operands(3);
  const auto start = context.int_values(0);
  const auto limit = context.int_values(1);
  const auto delta = context.int_values(2);
  if (!start || !limit || !delta || start->size() != 1 || limit->size() != 1 ||
      delta->size() != 1) {
    return std::nullopt;
  }
  if ((*delta)[0] == 0) context.fail("has a zero delta");
  const double count =
      std::ceil(static_cast<double>((*limit)[0] - (*start)[0]) / static_cast<double>((*delta)[0]));
  return context.same_for_all({std::max(int64_t{0}, static_cast<int64_t>(count))},
                              context.dtype(0));
}

const std::map<std::string, ShapeRule>& tensor_rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"Reshape", reshape},     {"Flatten", flatten},
      {"Transpose", transpose}, {"Concat", concat},
      {"Gather", gather},       {"GatherElements", gather_elements},
      {"Unsqueeze", unsqueeze}, {"Squeeze", squeeze},
      {"Shape", shape_of},      {"Size", size_of},
      {"Slice", slice},         {"Split", split},
      {"Expand", expand},       {"ConstantOfShape", constant_of_shape},
      {"Constant", constant},   {"Range", range},
  };
  return table;
}

}  // namespace

ShapeRule tensor_shape_rule(const std::string& op_type) {
  const auto found = tensor_rules().find(op_type);
  return found == tensor_rules().end() ? nullptr : found->second;
}

std::vector<std::string> tensor_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : tensor_rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
