#include "compiler/passes/constant_eval.h"

#include <cmath>
#include <functional>
#include <set>

namespace polyarch::passes {

namespace {

using Index = std::vector<int64_t>;

std::vector<int64_t> strides_of(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

Index unravel(int64_t flat, const Shape& shape) {
  Index index(shape.size(), 0);
  for (std::size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

// Flat position in `shape` (right-aligned, size-1 axes broadcast) of an output index.
int64_t broadcast_flat(const Index& out, const Shape& shape) {
  const std::vector<int64_t> strides = strides_of(shape);
  const std::size_t offset = out.size() - shape.size();
  int64_t flat = 0;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) flat += out[i + offset] * strides[i];
  }
  return flat;
}

// Each element of `result` from the broadcast elements of `inputs`, computed in double when any
// input or the result is floating point and in int64 otherwise (exact for shape arithmetic).
Values broadcast_apply(const std::vector<const Values*>& inputs, const TypedShape& result,
                       const std::function<double(const std::vector<double>&)>& real_fn,
                       const std::function<int64_t(const std::vector<int64_t>&)>& int_fn) {
  Values output = empty_values(result.dtype, result.shape);
  bool real = output.is_float();
  for (const Values* input : inputs) real = real || input->is_float();
  const int64_t count = ir::element_count(result.shape);
  std::vector<double> reals(inputs.size());
  std::vector<int64_t> ints(inputs.size());
  for (int64_t flat = 0; flat < count; ++flat) {
    const Index index = unravel(flat, result.shape);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const auto at = static_cast<std::size_t>(broadcast_flat(index, inputs[k]->shape));
      reals[k] = inputs[k]->real(at);
      ints[k] = inputs[k]->integer(at);
    }
    Values one = empty_values(real ? ir::DType::kFp64 : ir::DType::kInt64, {});
    if (real) {
      one.reals.push_back(real_fn(reals));
    } else {
      one.ints.push_back(int_fn(ints));
    }
    output.push_from(one, 0);
  }
  return output;
}

template <typename Op>
Values binary(const std::vector<std::optional<Values>>& in, const TypedShape& result, Op op) {
  return broadcast_apply(
      {&*in[0], &*in[1]}, result,
      [&](const std::vector<double>& v) { return static_cast<double>(op(v[0], v[1])); },
      [&](const std::vector<int64_t>& v) { return static_cast<int64_t>(op(v[0], v[1])); });
}

// An integer Div or Mod by zero has no value.
void require_nonzero_divisor(const ShapeContext& context, const Values& divisor) {
  if (divisor.is_float()) return;
  for (int64_t value : divisor.ints)
    if (value == 0) context.fail("divides by zero");
}

// ONNX Mod: with fmod=0 (integers only) the remainder takes the divisor's sign, as Python's %
// and numpy.mod; with fmod=1 the dividend's, as C's fmod. An integer divisor of 0 is an error.
Values modulo(const ShapeContext& context, const Values& dividend, const Values& divisor,
              const TypedShape& result) {
  const bool c_fmod = context.int_attr("fmod", 0) != 0;
  require_nonzero_divisor(context, divisor);
  const auto floor_mod = [c_fmod](auto remainder, auto by) {
    if (!c_fmod && remainder != 0 && (remainder < 0) != (by < 0)) remainder += by;
    return remainder;
  };
  return broadcast_apply(
      {&dividend, &divisor}, result,
      [&](const std::vector<double>& v) { return floor_mod(std::fmod(v[0], v[1]), v[1]); },
      // x % -1 is 0; computing it overflows for the most negative x.
      [&](const std::vector<int64_t>& v) { return v[1] == -1 ? 0 : floor_mod(v[0] % v[1], v[1]); });
}

Values gather(const ShapeContext& context, const Values& data, const Values& indices,
              const TypedShape& result) {
  const auto axis = static_cast<std::size_t>(
      context.axis(context.int_attr("axis", 0), static_cast<int64_t>(data.shape.size())));
  const int64_t outer = ir::element_count(
      Shape(data.shape.begin(), data.shape.begin() + static_cast<std::ptrdiff_t>(axis)));
  const int64_t inner = ir::element_count(
      Shape(data.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.shape.end()));
  const int64_t extent = data.shape[axis];
  Values output = empty_values(result.dtype, result.shape);
  for (int64_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(indices.size()); ++i) {
      int64_t at = indices.integer(i);
      if (at < 0) at += extent;
      if (at < 0 || at >= extent)
        context.fail("index " + std::to_string(indices.integer(i)) + " is out of range");
      for (int64_t k = 0; k < inner; ++k) {
        output.push_from(data, static_cast<std::size_t>((o * extent + at) * inner + k));
      }
    }
  }
  return output;
}

Values gather_elements(const ShapeContext& context, const Values& data, const Values& indices,
                       const TypedShape& result) {
  const auto axis = static_cast<std::size_t>(
      context.axis(context.int_attr("axis", 0), static_cast<int64_t>(data.shape.size())));
  const std::vector<int64_t> strides = strides_of(data.shape);
  Values output = empty_values(result.dtype, result.shape);
  for (int64_t flat = 0; flat < indices.size(); ++flat) {
    Index index = unravel(flat, indices.shape);
    int64_t at = indices.integer(static_cast<std::size_t>(flat));
    if (at < 0) at += data.shape[axis];
    if (at < 0 || at >= data.shape[axis]) context.fail("index is out of range");
    index[axis] = at;
    int64_t source = 0;
    for (std::size_t i = 0; i < index.size(); ++i) source += index[i] * strides[i];
    output.push_from(data, static_cast<std::size_t>(source));
  }
  return output;
}

Values concat(const ShapeContext& context, const std::vector<std::optional<Values>>& in,
              const TypedShape& result) {
  const auto axis = static_cast<std::size_t>(
      context.axis(context.int_attr("axis", 0), static_cast<int64_t>(result.shape.size())));
  const int64_t outer = ir::element_count(
      Shape(result.shape.begin(), result.shape.begin() + static_cast<std::ptrdiff_t>(axis)));
  Values output = empty_values(result.dtype, result.shape);
  for (int64_t o = 0; o < outer; ++o) {
    for (const auto& part : in) {
      const int64_t block = part->size() / std::max<int64_t>(outer, 1);
      for (int64_t k = 0; k < block; ++k)
        output.push_from(*part, static_cast<std::size_t>(o * block + k));
    }
  }
  return output;
}

// Result element -> source element by a per-axis map of result coordinates.
Values remap(const Values& data, const TypedShape& result,
             const std::function<int64_t(const Index&)>& source_of) {
  Values output = empty_values(result.dtype, result.shape);
  const int64_t count = ir::element_count(result.shape);
  for (int64_t flat = 0; flat < count; ++flat) {
    output.push_from(data, static_cast<std::size_t>(source_of(unravel(flat, result.shape))));
  }
  return output;
}

Values transpose(const ShapeContext& context, const Values& data, const TypedShape& result) {
  Shape perm(data.shape.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(perm.size() - 1 - i);
  perm = context.ints_attr("perm", perm);
  const std::vector<int64_t> strides = strides_of(data.shape);
  return remap(data, result, [&](const Index& out) {
    int64_t source = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
      source += out[i] * strides[static_cast<std::size_t>(perm[i])];
    return source;
  });
}

Values slice(const ShapeContext& context, const std::vector<std::optional<Values>>& in,
             const TypedShape& result) {
  const Values& data = *in[0];
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  Index start(data.shape.size(), 0);
  Index step(data.shape.size(), 1);
  for (std::size_t i = 0; i < static_cast<std::size_t>(in[1]->size()); ++i) {
    const auto axis = static_cast<std::size_t>(
        context.axis(in[3] ? in[3]->integer(i) : static_cast<int64_t>(i), rank));
    const int64_t dim = data.shape[axis];
    const int64_t s = in[4] ? in[4]->integer(i) : 1;
    int64_t first = in[1]->integer(i);
    if (first < 0) first += dim;
    first = s > 0 ? std::clamp(first, int64_t{0}, dim) : std::clamp(first, int64_t{0}, dim - 1);
    start[axis] = first;
    step[axis] = s;
  }
  const std::vector<int64_t> strides = strides_of(data.shape);
  return remap(data, result, [&](const Index& out) {
    int64_t source = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
      source += (start[i] + out[i] * step[i]) * strides[i];
    return source;
  });
}

Values constant_of_shape(const ShapeContext& context, const TypedShape& result) {
  Values fill = empty_values(result.dtype, {});
  const auto found = context.node().attributes.find("value");
  std::optional<Values> given;
  if (found != context.node().attributes.end()) {
    if (const auto* tensor = std::get_if<ir::Tensor>(&found->second)) given = read_values(*tensor);
  }
  if (given && given->size() > 0) {
    fill.push_from(*given, 0);
  } else {
    Values zero = empty_values(ir::DType::kInt64, {});
    zero.ints.push_back(0);
    fill.push_from(zero, 0);
  }
  return remap(fill, result, [](const Index&) { return int64_t{0}; });
}

Values shape_values(const ShapeContext& context, const TypedShape& result) {
  const Shape& shape = context.shape(0);
  const int64_t rank = context.rank(0);
  int64_t start = context.int_attr("start", 0);
  if (start < 0) start += rank;
  start = std::clamp(start, int64_t{0}, rank);
  Values output = empty_values(ir::DType::kInt64, result.shape);
  for (int64_t i = 0; i < result.shape[0]; ++i)
    output.ints.push_back(shape[static_cast<std::size_t>(start + i)]);
  return output;
}

Values reinterpret(const Values& data, const TypedShape& result) {
  return remap(data, result, [&](const Index& out) {
    int64_t flat = 0;
    for (std::size_t i = 0; i < out.size(); ++i) flat = flat * result.shape[i] + out[i];
    return flat;
  });
}

const std::set<std::string>& evaluable_types() {
  static const std::set<std::string> types = {"Identity",
                                              "Cast",
                                              "Shape",
                                              "Size",
                                              "Reshape",
                                              "Flatten",
                                              "Squeeze",
                                              "Unsqueeze",
                                              "Expand",
                                              "Add",
                                              "Sub",
                                              "Mul",
                                              "Div",
                                              "Mod",
                                              "Equal",
                                              "Less",
                                              "Greater",
                                              "LessOrEqual",
                                              "GreaterOrEqual",
                                              "And",
                                              "Or",
                                              "Not",
                                              "Neg",
                                              "Where",
                                              "Gather",
                                              "GatherElements",
                                              "Concat",
                                              "Slice",
                                              "Transpose",
                                              "ConstantOfShape",
                                              "Range"};
  return types;
}

}  // namespace

bool is_evaluable(const std::string& op_type) { return evaluable_types().count(op_type) > 0; }

std::optional<std::vector<Values>> evaluate_onnx_node(const ShapeContext& context,
                                                      const std::vector<std::optional<Values>>& in,
                                                      const std::vector<TypedShape>& results) {
  const std::string& type = context.node().op_type;
  if (!is_evaluable(type) || results.size() != 1) return std::nullopt;
  const TypedShape& result = results[0];
  const auto operand = [&](std::size_t i) -> const Values& {
    if (i >= in.size() || !in[i]) context.fail("needs the value of operand " + std::to_string(i));
    return *in[i];
  };
  if (type == "Shape") return std::vector<Values>{shape_values(context, result)};
  if (type == "Size") {
    Values size = empty_values(ir::DType::kInt64, {});
    size.ints.push_back(ir::element_count(context.shape(0)));
    return std::vector<Values>{size};
  }
  if (type == "ConstantOfShape") return std::vector<Values>{constant_of_shape(context, result)};
  Values value;
  if (type == "Identity" || type == "Cast" || type == "Reshape" || type == "Flatten" ||
      type == "Squeeze" || type == "Unsqueeze") {
    value = reinterpret(operand(0), result);
  } else if (type == "Expand") {
    value = broadcast_apply(
        {&operand(0)}, result, [](const std::vector<double>& v) { return v[0]; },
        [](const std::vector<int64_t>& v) { return v[0]; });
  } else if (type == "Add") {
    value = binary(in, result, std::plus<>());
  } else if (type == "Sub") {
    value = binary(in, result, std::minus<>());
  } else if (type == "Mul") {
    value = binary(in, result, std::multiplies<>());
  } else if (type == "Div") {
    require_nonzero_divisor(context, operand(1));
    value = binary(in, result, std::divides<>());
  } else if (type == "Mod") {
    value = modulo(context, operand(0), operand(1), result);
  } else if (type == "Equal") {
    value = binary(in, result, std::equal_to<>());
  } else if (type == "Less") {
    value = binary(in, result, std::less<>());
  } else if (type == "Greater") {
    value = binary(in, result, std::greater<>());
  } else if (type == "LessOrEqual") {
    value = binary(in, result, std::less_equal<>());
  } else if (type == "GreaterOrEqual") {
    value = binary(in, result, std::greater_equal<>());
  } else if (type == "And") {
    value = binary(in, result, std::logical_and<>());
  } else if (type == "Or") {
    value = binary(in, result, std::logical_or<>());
  } else if (type == "Not") {
    value = broadcast_apply(
        {&operand(0)}, result, [](const std::vector<double>& v) { return v[0] == 0 ? 1.0 : 0.0; },
        [](const std::vector<int64_t>& v) { return int64_t{v[0] == 0}; });
  } else if (type == "Neg") {
    value = broadcast_apply(
        {&operand(0)}, result, [](const std::vector<double>& v) { return -v[0]; },
        [](const std::vector<int64_t>& v) { return -v[0]; });
  } else if (type == "Where") {
    value = broadcast_apply(
        {&operand(0), &operand(1), &operand(2)}, result,
        [](const std::vector<double>& v) { return v[0] != 0 ? v[1] : v[2]; },
        [](const std::vector<int64_t>& v) { return v[0] != 0 ? v[1] : v[2]; });
  } else if (type == "Gather") {
    value = gather(context, operand(0), operand(1), result);
  } else if (type == "GatherElements") {
    value = gather_elements(context, operand(0), operand(1), result);
  } else if (type == "Concat") {
    for (std::size_t i = 0; i < in.size(); ++i) operand(i);
    value = concat(context, in, result);
  } else if (type == "Slice") {
    std::vector<std::optional<Values>> padded = in;
    padded.resize(5);
    value = slice(context, padded, result);
  } else if (type == "Transpose") {
    value = transpose(context, operand(0), result);
  } else {  // Range
    value = empty_values(result.dtype, result.shape);
    Values step = empty_values(ir::DType::kFp64, {});
    for (int64_t i = 0; i < result.shape[0]; ++i) {
      step.reals = {operand(0).real(0) + static_cast<double>(i) * operand(2).real(0)};
      value.push_from(step, 0);
    }
  }
  return std::vector<Values>{std::move(value)};
}

}  // namespace polyarch::passes
