#include "compiler/passes/fuse_gelu.h"

#include <cmath>
#include <numbers>

#include "compiler/passes/fusion_match.h"

namespace polyarch::passes {

namespace {

struct GeluMatch {
  std::vector<ir::NodeId> ops;
  ir::NodeId root = 0;
  ir::NodeId x = 0;
};

// `one_plus` = 1 + f(x): the tail multiplies it by x and 0.5, in one of three orders:
// (x * one_plus) * 0.5, (x * 0.5) * one_plus, (one_plus * 0.5) * x.
bool match_tail(const ir::Graph& graph, ir::NodeId x, ir::NodeId one_plus, GeluMatch& match) {
  const std::optional<ir::NodeId> first = only_consumer(graph, result_of(graph, one_plus));
  if (!first || elementwise_fn(graph, *first, "mul") == nullptr) return false;
  const std::optional<ir::NodeId> factor = other_operand(graph, *first, result_of(graph, one_plus));
  if (!factor) return false;
  const auto half_of = [&](ir::NodeId op, ir::NodeId operand) {
    const std::optional<ConstantOperand> half = with_constant(graph, op, "mul");
    return half && half->operand == operand && near(half->constant, 0.5);
  };
  if (*factor == x) {  // (x * one_plus) * 0.5
    const std::optional<ir::NodeId> second = only_consumer(graph, result_of(graph, *first));
    if (!second || !half_of(*second, result_of(graph, *first))) return false;
    match.ops.insert(match.ops.end(), {*first, *second});
    match.root = *second;
    return true;
  }
  const std::optional<ir::NodeId> scaled = ir::producer_of(graph, *factor);
  if (scaled && half_of(*scaled, x)) {  // (x * 0.5) * one_plus
    if (only_consumer(graph, *factor) != first) return false;
    match.ops.insert(match.ops.end(), {*scaled, *first});
    match.root = *first;
    return true;
  }
  if (half_of(*first, result_of(graph, one_plus))) {  // (one_plus * 0.5) * x
    const std::optional<ir::NodeId> second = only_consumer(graph, result_of(graph, *first));
    if (!second || elementwise_fn(graph, *second, "mul") == nullptr ||
        other_operand(graph, *second, result_of(graph, *first)) != x) {
      return false;
    }
    match.ops.insert(match.ops.end(), {*first, *second});
    match.root = *second;
    return true;
  }
  return false;
}

// 1 + f: an Add of the function's result and the constant 1.
std::optional<ir::NodeId> one_plus(const ir::Graph& graph, ir::NodeId function) {
  const std::optional<ir::NodeId> add = only_consumer(graph, result_of(graph, function));
  if (!add) return std::nullopt;
  const std::optional<ConstantOperand> one = with_constant(graph, *add, "add");
  if (!one || one->operand != result_of(graph, function) || !near(one->constant, 1.0)) {
    return std::nullopt;
  }
  return add;
}

// erf(x / sqrt 2), from the Erf op.
std::optional<GeluMatch> match_erf(const ir::Graph& graph, ir::NodeId erf) {
  const std::optional<ir::NodeId> scale = ir::producer_of(graph, graph.inputs_of(erf).front());
  if (!scale) return std::nullopt;
  GeluMatch match;
  if (const auto div = with_constant(graph, *scale, "div", false);
      div && near(div->constant, std::numbers::sqrt2)) {
    match.x = div->operand;
  } else if (const auto mul = with_constant(graph, *scale, "mul");
             mul && near(mul->constant, 1.0 / std::numbers::sqrt2)) {
    match.x = mul->operand;
  } else {
    return std::nullopt;
  }
  const std::optional<ir::NodeId> add = one_plus(graph, erf);
  if (!add) return std::nullopt;
  match.ops = {*scale, erf, *add};
  if (!match_tail(graph, match.x, *add, match)) return std::nullopt;
  return match;
}

// x^3 as Pow(x, 3) or x * (x * x) / (x * x) * x; the ops computing it.
std::optional<std::vector<ir::NodeId>> cube_of(const ir::Graph& graph, ir::NodeId cube,
                                               ir::NodeId x) {
  const std::optional<ir::NodeId> op = ir::producer_of(graph, cube);
  if (!op) return std::nullopt;
  if (const auto pow = with_constant(graph, *op, "pow", false)) {
    if (pow->operand == x && near(pow->constant, 3.0)) return std::vector<ir::NodeId>{*op};
    return std::nullopt;
  }
  if (elementwise_fn(graph, *op, "mul") == nullptr) return std::nullopt;
  const std::optional<ir::NodeId> square = other_operand(graph, *op, x);
  if (!square) return std::nullopt;
  const std::optional<ir::NodeId> square_op = produced_by(graph, *square, "mul");
  if (!square_op || graph.inputs_of(*square_op) != std::vector<ir::NodeId>{x, x}) {
    return std::nullopt;
  }
  return std::vector<ir::NodeId>{*square_op, *op};
}

// tanh(sqrt(2/pi) * (x + 0.044715 x^3)), from the Tanh op.
std::optional<GeluMatch> match_tanh(const ir::Graph& graph, ir::NodeId tanh) {
  const std::optional<ir::NodeId> scale = ir::producer_of(graph, graph.inputs_of(tanh).front());
  if (!scale) return std::nullopt;
  const auto scaled = with_constant(graph, *scale, "mul");
  if (!scaled || !near(scaled->constant, std::sqrt(2.0 / std::numbers::pi))) return std::nullopt;
  const std::optional<ir::NodeId> sum = produced_by(graph, scaled->operand, "add");
  if (!sum) return std::nullopt;
  // One operand of the sum is 0.044715 * x^3, the other x.
  for (ir::NodeId term : graph.inputs_of(*sum)) {
    const std::optional<ir::NodeId> x = other_operand(graph, *sum, term);
    const std::optional<ir::NodeId> term_op = ir::producer_of(graph, term);
    if (!x || !term_op) continue;
    const auto coefficient = with_constant(graph, *term_op, "mul");
    if (!coefficient || !near(coefficient->constant, 0.044715)) continue;
    const auto cube = cube_of(graph, coefficient->operand, *x);
    if (!cube) continue;
    const std::optional<ir::NodeId> add = one_plus(graph, tanh);
    if (!add) return std::nullopt;
    GeluMatch match;
    match.x = *x;
    match.ops = *cube;
    match.ops.insert(match.ops.end(), {*term_op, *sum, *scale, tanh, *add});
    if (!match_tail(graph, match.x, *add, match)) return std::nullopt;
    return match;
  }
  return std::nullopt;
}

}  // namespace

PassStatistics FuseGeluPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("fused", 0);
  FusionRewrite rewrite(graph);
  for (ir::NodeId op : graph.topological_ops()) {
    const bool erf = elementwise_fn(graph, op, "erf") != nullptr;
    const bool tanh = elementwise_fn(graph, op, "tanh") != nullptr;
    if (!erf && !tanh) continue;
    const std::optional<GeluMatch> match = erf ? match_erf(graph, op) : match_tanh(graph, op);
    if (!match || !rewrite.self_contained(match->ops, match->root) || !rewrite.claim(match->ops)) {
      continue;
    }
    const ir::Op& root = graph.op(match->root);
    ir::ElementwiseAttrs gelu;
    gelu.fn = "gelu";
    gelu.elements = std::get<ir::ElementwiseAttrs>(root.attrs).elements;
    gelu.inputs = 1;
    gelu.approximate_tanh = tanh;
    std::map<std::string, ir::AttributeValue> attributes;
    if (tanh) attributes["approximate"] = std::string("tanh");
    rewrite.replace(match->ops, match->root, fused_op(root, gelu, "Gelu", std::move(attributes)),
                    {match->x});
    statistics.add("fused");
    statistics.add(erf ? "gelu erf" : "gelu tanh");
  }
  statistics.add("ops erased", rewrite.apply());
  return statistics;
}

}  // namespace polyarch::passes
