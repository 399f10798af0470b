// Shape rules of ONNX's products beyond MatMul and Conv: Einsum, and the integer MatMulInteger
// and ConvInteger (MatMul's and Conv's shapes, int32 results).
#include <map>

#include "compiler/passes/einsum_equation.h"
#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

namespace {

InferredResults einsum(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shapes_known()) return std::nullopt;
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < context.operand_count(); ++i) shapes.push_back(context.shape(i));
  const EinsumEquation equation =
      parse_einsum(context.op(), string_attribute(context.node(), "equation", ""), shapes);
  return context.same_for_all(equation.result_shape(), context.dtype(0));
}

// The float operator's shapes with an int32 result.
template <const char* kFloatOpType>
InferredResults integer_product(const ShapeContext& context) {
  InferredResults results = nn_shape_rule(kFloatOpType)(context);
  if (results) {
    for (TypedShape& result : *results) result.dtype = ir::DType::kInt32;
  }
  return results;
}

constexpr char kMatMul[] = "MatMul";
constexpr char kConv[] = "Conv";

const std::map<std::string, ShapeRule>& rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"Einsum", einsum},
      {"MatMulInteger", integer_product<kMatMul>},
      {"ConvInteger", integer_product<kConv>},
  };
  return table;
}

}  // namespace

ShapeRule linear_shape_rule(const std::string& op_type) {
  const auto found = rules().find(op_type);
  return found == rules().end() ? nullptr : found->second;
}

std::vector<std::string> linear_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
