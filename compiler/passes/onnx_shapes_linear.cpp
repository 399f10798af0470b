// Shape rules of ONNX's products beyond MatMul and Conv: Einsum, the integer MatMulInteger and
// ConvInteger (MatMul's and Conv's shapes, int32 results), and the recurrent layers LSTM, GRU
// and RNN (gate products per time step).
#include <algorithm>
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

// LSTM, GRU, RNN: X [seq, batch, input] (layout 1: [batch, seq, input]), W [directions,
// gates * hidden, input]; Y [seq, directions, batch, hidden] ([batch, seq, directions, hidden]),
// Y_h and Y_c [directions, batch, hidden] ([batch, directions, hidden]).
InferredResults recurrent(const ShapeContext& context) {
  context.require_operands(3);
  if (!context.shape_known(0) || !context.shape_known(1)) return std::nullopt;
  const Shape& x = context.shape(0);
  const Shape& w = context.shape(1);
  const int64_t hidden = context.int_attr("hidden_size", 0);
  const bool batch_first = context.int_attr("layout", 0) != 0;
  if (x.size() != 3 || w.size() != 3 || hidden <= 0 || w[2] != x[2]) {
    context.fail("X " + shape_string(x) + " and W " + shape_string(w) + " with hidden_size " +
                 std::to_string(hidden) + " are not [seq, batch, input] and [directions, " +
                 "gates * hidden, input]");
  }
  const int64_t seq = batch_first ? x[1] : x[0];
  const int64_t batch = batch_first ? x[0] : x[1];
  const int64_t directions = w[0];
  const Shape y =
      batch_first ? Shape{batch, seq, directions, hidden} : Shape{seq, directions, batch, hidden};
  const Shape state =
      batch_first ? Shape{batch, directions, hidden} : Shape{directions, batch, hidden};
  std::vector<TypedShape> results;
  const std::vector<int64_t>& omitted = context.node().omitted_outputs;
  for (int64_t position = 0; position < 3; ++position) {
    if (std::count(omitted.begin(), omitted.end(), position) > 0) continue;
    results.push_back({position == 0 ? y : state, context.dtype(0)});
  }
  results.resize(std::min(results.size(), context.result_count()));
  return results;
}

constexpr char kMatMul[] = "MatMul";
constexpr char kConv[] = "Conv";

const std::map<std::string, ShapeRule>& linear_rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"Einsum", einsum},
      {"MatMulInteger", integer_product<kMatMul>},
      {"ConvInteger", integer_product<kConv>},
      {"LSTM", recurrent},
      {"GRU", recurrent},
      {"RNN", recurrent},
  };
  return table;
}

}  // namespace

ShapeRule linear_shape_rule(const std::string& op_type) {
  const auto found = linear_rules().find(op_type);
  return found == linear_rules().end() ? nullptr : found->second;
}

std::vector<std::string> linear_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : linear_rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
