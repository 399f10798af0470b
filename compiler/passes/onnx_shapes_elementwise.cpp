// Shape rules of elementwise ONNX operators: broadcasting binaries, unaries, Where, casts,
// quantisation, and the per-row operators that keep their input's shape (Softmax, the norms).
#include <map>

#include "compiler/frontend/onnx/element_type.h"
#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

namespace {

InferredResults broadcast_to(const ShapeContext& context, std::size_t first, std::size_t count,
                             ir::DType dtype) {
  Shape shape;
  for (std::size_t i = first; i < first + count; ++i) {
    const std::optional<Shape> joined = broadcast_shapes(shape, context.shape(i));
    if (!joined) {
      context.fail("operand shapes " + shape_string(shape) + " and " +
                   shape_string(context.shape(i)) + " do not broadcast");
    }
    shape = *joined;
  }
  return context.same_for_all(shape, dtype);
}

InferredResults arithmetic(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  return broadcast_to(context, 0, context.operand_count(), context.dtype(0));
}

// Sum, Max, Min and Mean take one operand or more.
InferredResults variadic(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shapes_known()) return std::nullopt;
  return broadcast_to(context, 0, context.operand_count(), context.dtype(0));
}

// PRelu's slope broadcasts to the data (unidirectionally): the result has the data's shape.
InferredResults prelu(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  const std::optional<Shape> joined = broadcast_shapes(context.shape(0), context.shape(1));
  if (!joined || *joined != context.shape(0)) {
    context.fail("slope " + shape_string(context.shape(1)) + " does not broadcast to the data " +
                 shape_string(context.shape(0)));
  }
  return context.same_for_all(context.shape(0), context.dtype(0));
}

InferredResults comparison(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shapes_known()) return std::nullopt;
  return broadcast_to(context, 0, 2, ir::DType::kBool);
}

InferredResults where(const ShapeContext& context) {
  context.require_operands(3);
  if (!context.shapes_known()) return std::nullopt;
  return broadcast_to(context, 0, 3, context.dtype(1));
}

// Shape and type of the first operand: activations, Identity, Softmax, the norms' main result.
InferredResults unary(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  return context.same_for_all(context.shape(0), context.dtype(0));
}

// BatchNormalization: Y has X's shape; in training mode its running mean and variance have the
// scale's ([C]).
InferredResults batch_normalization(const ShapeContext& context) {
  context.require_operands(5);
  if (!context.shape_known(0) || !context.shape_known(1)) return std::nullopt;
  std::vector<TypedShape> results = {{context.shape(0), context.dtype(0)}};
  for (std::size_t i = 1; i < context.result_count(); ++i) {
    results.push_back({context.shape(1), context.dtype(0)});
  }
  return results;
}

InferredResults is_nan(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  return context.same_for_all(context.shape(0), ir::DType::kBool);
}

InferredResults cast(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const int64_t to = context.int_attr("to", 0);
  const std::optional<ir::DType> dtype =
      frontend::onnx_import::dtype_of_element_type(static_cast<int32_t>(to));
  if (!dtype) {
    context.fail("casts to element type " +
                 frontend::onnx_import::element_type_name(static_cast<int32_t>(to)) +
                 ", which has no IR type");
  }
  return context.same_for_all(context.shape(0), *dtype);
}

// The scale (and zero point) of a Q/DQ node against its input x: a scalar (per tensor), a 1-D
// tensor of x's `axis` extent (per axis), or, with `block_size` (opset 21), x's rank with
// ceil(extent / block_size) along `axis` and x's extents elsewhere (blocked).
void check_quantisation_parameters(const ShapeContext& context) {
  const Shape& x = context.shape(0);
  const int64_t block = context.int_attr("block_size", 0);
  if (block < 0) context.fail("block_size " + std::to_string(block) + " is negative");
  for (std::size_t i = 1; i < 3; ++i) {
    if (!context.has(i) || !context.shape_known(i)) continue;
    const Shape& scale = context.shape(i);
    const int64_t elements = ir::element_count(scale);
    if (block == 0 && (scale.size() <= 1 && (elements == 1 || x.empty()))) continue;
    const int64_t axis = context.axis(context.int_attr("axis", 1), static_cast<int64_t>(x.size()));
    const int64_t extent = x[static_cast<std::size_t>(axis)];
    if (block == 0) {
      if (scale.size() == 1 && scale[0] == extent) continue;
      context.fail("operand " + std::to_string(i) + " " + shape_string(scale) +
                   " is neither one value nor one per element of axis " + std::to_string(axis) +
                   " of " + shape_string(x));
    }
    Shape expected = x;
    expected[static_cast<std::size_t>(axis)] = (extent + block - 1) / block;
    if (scale != expected) {
      context.fail("operand " + std::to_string(i) + " " + shape_string(scale) +
                   " does not hold one value per block of " + std::to_string(block) +
                   " along axis " + std::to_string(axis) + " of " + shape_string(x) +
                   " (expected " + shape_string(expected) + ")");
    }
  }
}

// QuantizeLinear yields `output_dtype` (opset 21), else the zero point's type, else uint8;
// DequantizeLinear the scale's (fp32, fp16 or bf16).
InferredResults quantize(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shape_known(0)) return std::nullopt;
  check_quantisation_parameters(context);
  ir::DType dtype = context.has(2) ? context.dtype(2) : ir::DType::kUint8;
  if (const int64_t code = context.int_attr("output_dtype", 0); code != 0) {
    const std::optional<ir::DType> given =
        frontend::onnx_import::dtype_of_element_type(static_cast<int32_t>(code));
    if (!given) {
      context.fail("output_dtype " +
                   frontend::onnx_import::element_type_name(static_cast<int32_t>(code)) +
                   " has no IR type");
    }
    if (context.has(2) && *given != context.dtype(2)) {
      context.fail("output_dtype " + std::string(ir::dtype_name(*given)) +
                   " differs from the zero point's " +
                   std::string(ir::dtype_name(context.dtype(2))));
    }
    dtype = *given;
  }
  return context.same_for_all(context.shape(0), dtype);
}

InferredResults dequantize(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shape_known(0)) return std::nullopt;
  check_quantisation_parameters(context);
  return context.same_for_all(context.shape(0), context.dtype(1));
}

// LayerNormalization's optional Mean and InvStdDev results keep the leading axes and have 1
// in each normalised one.
InferredResults layer_normalization(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  const int64_t axis = context.axis(context.int_attr("axis", -1), context.rank(0));
  Shape statistics = input;
  for (std::size_t i = static_cast<std::size_t>(axis); i < statistics.size(); ++i) {
    statistics[i] = 1;
  }
  std::vector<TypedShape> results = {{input, context.dtype(0)}};
  for (std::size_t i = 1; i < context.result_count(); ++i) {
    results.push_back({statistics, ir::DType::kFp32});
  }
  return results;
}

const std::map<std::string, ShapeRule>& elementwise_rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"Add", arithmetic},
      {"Sub", arithmetic},
      {"Mul", arithmetic},
      {"Div", arithmetic},
      {"Pow", arithmetic},
      {"Max", variadic},
      {"Min", variadic},
      {"Sum", variadic},
      {"Mean", variadic},
      {"PRelu", prelu},
      {"Mod", arithmetic},
      {"BitShift", arithmetic},
      {"And", comparison},
      {"Or", comparison},
      {"Xor", comparison},
      {"Equal", comparison},
      {"Greater", comparison},
      {"Less", comparison},
      {"GreaterOrEqual", comparison},
      {"LessOrEqual", comparison},
      {"Where", where},
      {"Relu", unary},
      {"LeakyRelu", unary},
      {"Clip", unary},
      {"Sigmoid", unary},
      {"HardSigmoid", unary},
      {"HardSwish", unary},
      {"Tanh", unary},
      {"Erf", unary},
      {"Gelu", unary},
      {"Exp", unary},
      {"Log", unary},
      {"Sqrt", unary},
      {"Reciprocal", unary},
      {"Neg", unary},
      {"Abs", unary},
      {"Not", unary},
      {"Sin", unary},
      {"Cos", unary},
      {"Tan", unary},
      {"Asin", unary},
      {"Acos", unary},
      {"Atan", unary},
      {"Sinh", unary},
      {"Cosh", unary},
      {"Asinh", unary},
      {"Acosh", unary},
      {"Atanh", unary},
      {"Sign", unary},
      {"Floor", unary},
      {"Ceil", unary},
      {"Round", unary},
      {"Softplus", unary},
      {"Softsign", unary},
      {"Elu", unary},
      {"Selu", unary},
      {"Celu", unary},
      {"ThresholdedRelu", unary},
      {"Shrink", unary},
      {"Mish", unary},
      {"Identity", unary},
      {"Dropout", unary},
      {"Softmax", unary},
      {"LogSoftmax", unary},
      {"BatchNormalization", batch_normalization},
      {"IsNaN", is_nan},
      {"IsInf", is_nan},
      {"Cast", cast},
      {"QuantizeLinear", quantize},
      {"DequantizeLinear", dequantize},
      {"LayerNormalization", layer_normalization},
  };
  return table;
}

}  // namespace

ShapeRule elementwise_shape_rule(const std::string& op_type) {
  const auto found = elementwise_rules().find(op_type);
  return found == elementwise_rules().end() ? nullptr : found->second;
}

std::vector<std::string> elementwise_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : elementwise_rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
