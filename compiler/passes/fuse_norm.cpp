#include "compiler/passes/fuse_norm.h"

#include "compiler/passes/fusion_match.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::passes {

namespace {

struct NormMatch {
  ir::NormKind kind = ir::NormKind::kLayerNorm;
  std::vector<ir::NodeId> ops;
  ir::NodeId root = 0;
  ir::NodeId x = 0;
  ir::NodeId gamma = 0;
  std::optional<ir::NodeId> beta;
  double epsilon = 0.0;
  int64_t cols = 0;
};

// A mean over the last axis of its operand, kept as a size-1 axis: what the pattern's
// statistics are. Returns the row length.
std::optional<int64_t> last_axis_mean(const ir::Graph& graph, ir::NodeId op) {
  const auto* reduce = std::get_if<ir::ReduceAttrs>(&graph.op(op).attrs);
  const ir::OnnxNodeAttrs* node = graph.op(op).lowered_from.get();
  if (reduce == nullptr || reduce->fn != "mean" || node == nullptr) return std::nullopt;
  const ir::Tensor& input = graph.tensor(graph.inputs_of(op).front());
  const ir::Tensor& result = graph.tensor(result_of(graph, op));
  const auto rank = static_cast<int64_t>(input.shape.size());
  const std::vector<int64_t> axes = ints_attribute(*node, "axes");
  if (rank == 0 || axes.size() != 1 || (axes[0] != -1 && axes[0] != rank - 1) ||
      result.shape.size() != input.shape.size() || result.shape.back() != 1) {
    return std::nullopt;
  }
  return input.shape.back();
}

// v^2 as Pow(v, 2) or v * v; the squared value.
std::optional<ir::NodeId> squared(const ir::Graph& graph, ir::NodeId op) {
  if (const auto pow = with_constant(graph, op, "pow", false)) {
    return near(pow->constant, 2.0) ? std::optional(pow->operand) : std::nullopt;
  }
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op);
  if (elementwise_fn(graph, op, "mul") != nullptr && inputs.size() == 2 && inputs[0] == inputs[1]) {
    return inputs[0];
  }
  return std::nullopt;
}

// From the mean of squares: value / sqrt(mean + eps), the division as Div or as Mul by the
// root's reciprocal. Appends the ops and sets epsilon; returns the normalised result's op.
std::optional<ir::NodeId> normalised(const ir::Graph& graph, ir::NodeId mean, ir::NodeId value,
                                     NormMatch& match) {
  const std::optional<ir::NodeId> add = only_consumer(graph, result_of(graph, mean));
  if (!add) return std::nullopt;
  const auto epsilon = with_constant(graph, *add, "add");
  if (!epsilon || epsilon->operand != result_of(graph, mean) || !(epsilon->constant > 0.0)) {
    return std::nullopt;
  }
  const std::optional<ir::NodeId> root = only_consumer(graph, result_of(graph, *add));
  if (!root || elementwise_fn(graph, *root, "sqrt") == nullptr) return std::nullopt;
  const std::optional<ir::NodeId> next = only_consumer(graph, result_of(graph, *root));
  if (!next) return std::nullopt;
  match.epsilon = epsilon->constant;
  match.ops.insert(match.ops.end(), {mean, *add, *root, *next});
  const std::vector<ir::NodeId> inputs = graph.inputs_of(*next);
  if (elementwise_fn(graph, *next, "div") != nullptr) {
    return inputs == std::vector<ir::NodeId>{value, result_of(graph, *root)} ? next : std::nullopt;
  }
  const auto one_over = with_constant(graph, *next, "div", true);
  const bool reciprocal = elementwise_fn(graph, *next, "reciprocal") != nullptr ||
                          (one_over && near(one_over->constant, 1.0));
  if (!reciprocal) return std::nullopt;
  const std::optional<ir::NodeId> product = only_consumer(graph, result_of(graph, *next));
  if (!product || elementwise_fn(graph, *product, "mul") == nullptr ||
      other_operand(graph, *product, result_of(graph, *next)) != value) {
    return std::nullopt;
  }
  match.ops.push_back(*product);
  return product;
}

// A per-column parameter: an initializer of `cols` elements.
bool column_parameter(const ir::Graph& graph, ir::NodeId tensor, int64_t cols) {
  const ir::Tensor& parameter = graph.tensor(tensor);
  return parameter.role == ir::TensorRole::kWeight && !ir::producer_of(graph, tensor) &&
         parameter.shape_known() && ir::element_count(parameter.shape) == cols &&
         (parameter.shape.empty() || parameter.shape.back() == cols);
}

// The affine tail: * gamma, then for LayerNorm optionally + beta.
bool affine(const ir::Graph& graph, ir::NodeId normalised_op, NormMatch& match) {
  const ir::NodeId normalised_value = result_of(graph, normalised_op);
  const std::optional<ir::NodeId> scale = only_consumer(graph, normalised_value);
  if (!scale || elementwise_fn(graph, *scale, "mul") == nullptr) return false;
  const std::optional<ir::NodeId> gamma = other_operand(graph, *scale, normalised_value);
  if (!gamma || !column_parameter(graph, *gamma, match.cols)) return false;
  match.gamma = *gamma;
  match.ops.push_back(*scale);
  match.root = *scale;
  if (match.kind != ir::NormKind::kLayerNorm) return true;
  const std::optional<ir::NodeId> shift = only_consumer(graph, result_of(graph, *scale));
  if (!shift || elementwise_fn(graph, *shift, "add") == nullptr) return true;
  const std::optional<ir::NodeId> beta = other_operand(graph, *shift, result_of(graph, *scale));
  if (beta && column_parameter(graph, *beta, match.cols)) {
    match.beta = beta;
    match.ops.push_back(*shift);
    match.root = *shift;
  }
  return true;
}

// LayerNorm from its first mean: mean(x) -> x - mean -> mean((x - mean)^2) -> ...
std::optional<NormMatch> match_layer_norm(const ir::Graph& graph, ir::NodeId mean, int64_t cols) {
  NormMatch match;
  match.cols = cols;
  match.x = graph.inputs_of(mean).front();
  const std::optional<ir::NodeId> centre = only_consumer(graph, result_of(graph, mean));
  if (!centre || elementwise_fn(graph, *centre, "sub") == nullptr ||
      graph.inputs_of(*centre) != std::vector<ir::NodeId>{match.x, result_of(graph, mean)}) {
    return std::nullopt;
  }
  const ir::NodeId centred = result_of(graph, *centre);
  // The centred value feeds the square and the division.
  std::optional<ir::NodeId> square;
  for (ir::NodeId reader : ir::consumers_of(graph, centred)) {
    if (squared(graph, reader) == centred) square = reader;
  }
  if (!square) return std::nullopt;
  const std::optional<ir::NodeId> variance = only_consumer(graph, result_of(graph, *square));
  if (!variance || last_axis_mean(graph, *variance) != cols) return std::nullopt;
  match.ops = {mean, *centre, *square};
  const std::optional<ir::NodeId> division = normalised(graph, *variance, centred, match);
  if (!division || !affine(graph, *division, match)) return std::nullopt;
  return match;
}

// RMSNorm from its mean of squares: mean(x^2) -> ... -> x / root.
std::optional<NormMatch> match_rms_norm(const ir::Graph& graph, ir::NodeId mean, int64_t cols) {
  const std::optional<ir::NodeId> square = ir::producer_of(graph, graph.inputs_of(mean).front());
  if (!square) return std::nullopt;
  const std::optional<ir::NodeId> x = squared(graph, *square);
  if (!x || only_consumer(graph, result_of(graph, *square)) != mean) return std::nullopt;
  NormMatch match;
  match.kind = ir::NormKind::kRmsNorm;
  match.cols = cols;
  match.x = *x;
  match.ops = {*square};
  const std::optional<ir::NodeId> division = normalised(graph, mean, *x, match);
  if (!division || !affine(graph, *division, match)) return std::nullopt;
  return match;
}

}  // namespace

PassStatistics FuseNormPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("fused", 0);
  FusionRewrite rewrite(graph);
  for (ir::NodeId op : graph.topological_ops()) {
    const std::optional<int64_t> cols = last_axis_mean(graph, op);
    if (!cols) continue;
    // A LayerNorm's first mean reads x, which is no square; an RMSNorm's mean reads x^2.
    std::optional<NormMatch> match = match_layer_norm(graph, op, *cols);
    if (!match) match = match_rms_norm(graph, op, *cols);
    if (!match || !rewrite.self_contained(match->ops, match->root) || !rewrite.claim(match->ops)) {
      continue;
    }
    const ir::Op& root = graph.op(match->root);
    ir::NormAttrs norm;
    norm.kind = match->kind;
    norm.cols = match->cols;
    norm.rows = ir::element_count(graph.tensor(match->x).shape) / match->cols;
    const bool layer = match->kind == ir::NormKind::kLayerNorm;
    ir::Op fused = fused_op(root, norm, layer ? "LayerNormalization" : "RMSNormalization",
                            {{"axis", int64_t{-1}}, {"epsilon", match->epsilon}});
    ir::validate_op(fused);
    std::vector<ir::NodeId> inputs = {match->x, match->gamma};
    if (match->beta) inputs.push_back(*match->beta);
    rewrite.replace(match->ops, match->root, std::move(fused), std::move(inputs));
    statistics.add("fused");
    statistics.add(std::string(ir::norm_kind_name(match->kind)));
  }
  statistics.add("ops erased", rewrite.apply());
  return statistics;
}

}  // namespace polyarch::passes
