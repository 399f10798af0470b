#include "compiler/passes/fuse_attention.h"

#include <cmath>

#include "compiler/ir/attention_visibility.h"
#include "compiler/passes/block_mask_pattern.h"
#include "compiler/passes/fusion_match.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

namespace {

using Shape = std::vector<int64_t>;

// Scores below this are masked out: exporters fill with -inf, float min or -1e4 and less.
constexpr double kMaskedFill = -1e4;
// The scale constants are fp32, and torch splits them in two square roots.
constexpr double kScaleTolerance = 1e-5;

const Shape& shape_of(const ir::Graph& graph, ir::NodeId tensor) {
  return graph.tensor(tensor).shape;
}

// The permutation of a lowered Transpose, or nullopt for any other op.
std::optional<Shape> transpose_perm(const ir::Graph& graph, ir::NodeId op) {
  if (!std::holds_alternative<ir::CopyAttrs>(graph.op(op).attrs) ||
      source_type(graph.op(op)) != "Transpose") {
    return std::nullopt;
  }
  return ints_attribute(*graph.op(op).lowered_from, "perm");
}

bool is_view(const ir::Graph& graph, ir::NodeId op) {
  const auto* copy = std::get_if<ir::CopyAttrs>(&graph.op(op).attrs);
  return copy != nullptr && copy->is_view;
}

// One operand of the attention: the [b, heads, seq, d] tensor the products read and the ops
// leading to it from there, and where the exporter split heads, the [b, seq, heads*d] tensor
// and the further ops that split it.
struct Side {
  ir::NodeId heads = 0;
  std::vector<ir::NodeId> ops;
  std::optional<ir::NodeId> sequence;
  std::vector<ir::NodeId> sequence_ops;
};

// The head split: heads = Transpose(perm)(Reshape(x)) with x [b, seq, heads*d] (or any shape
// of those elements). Fills the side's sequence form.
void head_split(const ir::Graph& graph, ir::NodeId transposed, const Shape& perm, Side& side) {
  const std::optional<ir::NodeId> transpose = ir::producer_of(graph, transposed);
  if (!transpose || transpose_perm(graph, *transpose) != perm) return;
  const ir::NodeId split = graph.inputs_of(*transpose).front();
  const std::optional<ir::NodeId> reshape = ir::producer_of(graph, split);
  if (!reshape || !is_view(graph, *reshape) || shape_of(graph, split).size() != 4) return;
  side.sequence = graph.inputs_of(*reshape).front();
  side.sequence_ops = {*transpose, *reshape};
}

// GQA's repeat_kv: Reshape(Expand(Unsqueeze(kv))) from [b, kv_heads, len, d] to
// [b, kv_heads * n_rep, len, d]. Moves the side to the un-repeated tensor.
void unrepeat(const ir::Graph& graph, Side& side) {
  const std::optional<ir::NodeId> reshape = ir::producer_of(graph, side.heads);
  if (!reshape || !is_view(graph, *reshape)) return;
  const ir::NodeId expanded = graph.inputs_of(*reshape).front();
  const std::optional<ir::NodeId> expand = ir::producer_of(graph, expanded);
  if (!expand || source_type(graph.op(*expand)) != "Expand") return;
  const std::optional<ir::NodeId> unsqueeze =
      ir::producer_of(graph, graph.inputs_of(*expand).front());
  if (!unsqueeze || !is_view(graph, *unsqueeze)) return;
  const ir::NodeId kv = graph.inputs_of(*unsqueeze).front();
  const Shape& repeated = shape_of(graph, side.heads);
  const Shape& original = shape_of(graph, kv);
  const Shape& five = shape_of(graph, expanded);
  if (original.size() != 4 || five.size() != 5 || five[0] != original[0] ||
      five[1] != original[1] || five[3] != original[2] || five[4] != original[3] ||
      repeated[1] != original[1] * five[2]) {
    return;
  }
  side.ops.insert(side.ops.end(), {*reshape, *expand, *unsqueeze});
  side.heads = kv;
}

// Mul or Div of the tensor by scalar constants, walking back to the unscaled tensor; the
// product of the factors multiplies `scale`.
ir::NodeId unscaled(const ir::Graph& graph, ir::NodeId tensor, double& scale,
                    std::vector<ir::NodeId>& ops) {
  for (;;) {
    const std::optional<ir::NodeId> op = ir::producer_of(graph, tensor);
    if (!op) return tensor;
    if (const auto mul = with_constant(graph, *op, "mul")) {
      scale *= mul->constant;
      tensor = mul->operand;
    } else if (const auto div = with_constant(graph, *op, "div", false)) {
      scale /= div->constant;
      tensor = div->operand;
    } else {
      return tensor;
    }
    ops.push_back(*op);
  }
}

struct AttentionMatch {
  std::vector<ir::NodeId> ops;
  ir::NodeId root = 0;
  ir::NodeId qk = 0;  // the Q K^T product
  ir::NodeId pv = 0;  // the P V product
  double scale = 1.0;
  bool causal = false;
  int64_t window = 0;  // a sliding window the constant spells (attention_visibility.h)
  std::shared_ptr<const ir::BlockSparseLayout> block_sparse;  // or a block pattern
  std::optional<ir::NodeId> mask;
};

// The mask pattern a constant spells for s queries (the last s of kv positions), over its last
// two axes (leading axes 1): causal (key j <= query i + kv - s), or a sliding window, causal or
// centred (ir::visible_keys). The candidates are read off the first and last query rows, then
// checked entry by entry; failing those, a block-sparse layout (block_mask_pattern.h); nullopt
// when none matches.
std::optional<ir::AttentionAttrs> visibility_constant(const ir::Graph& graph, ir::NodeId tensor,
                                                      int64_t s, int64_t kv) {
  const ir::Tensor& condition = graph.tensor(tensor);
  const Shape& shape = condition.shape;
  if (shape.size() < 2 || shape[shape.size() - 2] != s || shape.back() != kv ||
      ir::element_count(shape) != s * kv || s > kv) {
    return std::nullopt;
  }
  const std::optional<Values> values = read_values(condition);
  if (!values) return std::nullopt;
  const auto visible = [&](int64_t i, int64_t j) {
    return values->real(static_cast<std::size_t>(i * kv + j)) != 0.0;
  };
  // Visible keys of a query row as one range [first, end) (empty: first == end == 0).
  const auto row_range = [&](int64_t i) {
    int64_t first = 0;
    while (first < kv && !visible(i, first)) ++first;
    int64_t end = first;
    while (end < kv && visible(i, end)) ++end;
    return ir::KeyRange{first == kv ? 0 : first, first == kv ? 0 : end};
  };
  const ir::KeyRange first_row = row_range(0);
  const ir::KeyRange last_row = row_range(s - 1);
  const int64_t first_position = kv - s;
  const int64_t last_position = kv - 1;
  std::vector<ir::AttentionAttrs> candidates;
  // Causal: the last row ends at its own position; the window is its length, unless it reaches
  // key 0 (then the first row says whether a window cuts anything).
  ir::AttentionAttrs causal{.s = s, .kv_len = kv, .causal = true};
  candidates.push_back(causal);
  causal.window = last_row.size();
  candidates.push_back(causal);
  // Centred: the last row starts `before` keys back, the first row ends `after` keys on.
  const int64_t before = last_position - last_row.first;
  const int64_t after = first_row.end - 1 - first_position;
  if (before >= 0 && after >= 0) {
    candidates.push_back({.s = s, .kv_len = kv, .causal = false, .window = before + after + 1});
  }
  for (const ir::AttentionAttrs& candidate : candidates) {
    bool matches = true;
    for (int64_t i = 0; i < s && matches; ++i) {
      const ir::KeyRange seen = ir::visible_keys(candidate, i);
      for (int64_t j = 0; j < kv && matches; ++j) {
        matches = visible(i, j) == (j >= seen.first && j < seen.end);
      }
    }
    if (matches) return candidate;
  }
  if (std::optional<BlockMaskPattern> blocks = block_mask_pattern(visible, s, kv)) {
    return ir::AttentionAttrs{
        .s = s, .kv_len = kv, .causal = blocks->causal, .block_sparse = blocks->layout};
  }
  return std::nullopt;
}

// From the softmax's operand back to the Q K^T product: scaling, one additive mask and one
// causal, sliding-window or block-pattern Where, in any order.
bool scores_from(const ir::Graph& graph, ir::NodeId tensor, AttentionMatch& match) {
  const std::optional<ir::NodeId> op = ir::producer_of(graph, tensor);
  if (!op) return false;
  const auto* gemm = std::get_if<ir::GemmAttrs>(&graph.op(*op).attrs);
  if (gemm != nullptr) {
    if (gemm->b_shared || gemm->bias || gemm->activation) return false;
    match.qk = *op;
    return true;
  }
  const Shape& scores = shape_of(graph, tensor);
  if (scores.size() != 4) return false;
  if (const auto mul = with_constant(graph, *op, "mul")) {
    match.scale *= mul->constant;
    match.ops.push_back(*op);
    return scores_from(graph, mul->operand, match);
  }
  if (const auto div = with_constant(graph, *op, "div", false)) {
    match.scale /= div->constant;
    match.ops.push_back(*op);
    return scores_from(graph, div->operand, match);
  }
  const std::vector<ir::NodeId> inputs = graph.inputs_of(*op);
  if (elementwise_fn(graph, *op, "add") != nullptr && inputs.size() == 2 && !match.mask) {
    // The scores are the full-size operand that leads to the product; the mask broadcasts.
    for (std::size_t chain = 0; chain < 2; ++chain) {
      if (shape_of(graph, inputs[chain]) != scores) continue;
      AttentionMatch attempt = match;
      attempt.mask = inputs[1 - chain];
      attempt.ops.push_back(*op);
      if (scores_from(graph, inputs[chain], attempt)) {
        match = attempt;
        return true;
      }
    }
    return false;
  }
  if (elementwise_fn(graph, *op, "where") != nullptr && inputs.size() == 3 && !match.causal &&
      match.window == 0 && !match.block_sparse) {
    const std::optional<double> fill = scalar_value(graph, inputs[2]);
    if (!fill || !(*fill <= kMaskedFill) || shape_of(graph, inputs[1]) != scores) return false;
    const std::optional<ir::AttentionAttrs> pattern =
        visibility_constant(graph, inputs[0], scores[2], scores[3]);
    if (!pattern) return false;
    match.causal = pattern->causal;
    match.window = pattern->window;
    match.block_sparse = pattern->block_sparse;
    match.ops.push_back(*op);
    return scores_from(graph, inputs[1], match);
  }
  return false;
}

// After the softmax: the P V product, through the exporter's Where(IsNaN(P), 0, P) if there.
std::optional<ir::NodeId> product_with_values(const ir::Graph& graph, ir::NodeId softmax,
                                              AttentionMatch& match) {
  ir::NodeId probabilities = result_of(graph, softmax);
  std::optional<ir::NodeId> isnan;
  std::optional<ir::NodeId> where;
  for (ir::NodeId reader : ir::consumers_of(graph, probabilities)) {
    if (elementwise_fn(graph, reader, "isnan") != nullptr) isnan = reader;
    if (elementwise_fn(graph, reader, "where") != nullptr) where = reader;
  }
  if (isnan && where) {
    const std::vector<ir::NodeId> inputs = graph.inputs_of(*where);
    const std::optional<double> zero =
        inputs.size() == 3 ? scalar_value(graph, inputs[1]) : std::nullopt;
    if (inputs[0] != result_of(graph, *isnan) || !zero || *zero != 0.0 ||
        inputs[2] != probabilities) {
      return std::nullopt;
    }
    match.ops.insert(match.ops.end(), {*isnan, *where});
    probabilities = result_of(graph, *where);
  }
  const std::optional<ir::NodeId> pv = only_consumer(graph, probabilities);
  if (!pv || graph.inputs_of(*pv).front() != probabilities) return std::nullopt;
  const auto* gemm = std::get_if<ir::GemmAttrs>(&graph.op(*pv).attrs);
  if (gemm == nullptr || gemm->b_shared || gemm->bias || gemm->activation) return std::nullopt;
  return pv;
}

bool softmax_over_last_axis(const ir::Graph& graph, ir::NodeId op) {
  if (graph.op(op).kind() != ir::OpKind::kSoftmax || source_type(graph.op(op)) != "Softmax") {
    return false;
  }
  const int64_t axis = int_attribute(*graph.op(op).lowered_from, "axis", -1);
  const auto rank = static_cast<int64_t>(shape_of(graph, graph.inputs_of(op).front()).size());
  return rank == 4 && (axis == -1 || axis == rank - 1);
}

// A permutation that swaps the last two axes and keeps the others.
bool swaps_last_two(const std::optional<Shape>& perm) {
  if (!perm || perm->size() < 2) return false;
  const std::size_t rank = perm->size();
  for (std::size_t axis = 0; axis + 2 < rank; ++axis) {
    if ((*perm)[axis] != static_cast<int64_t>(axis)) return false;
  }
  return (*perm)[rank - 2] == static_cast<int64_t>(rank - 1) &&
         (*perm)[rank - 1] == static_cast<int64_t>(rank - 2);
}

// Through views (reshapes) back from the tensor until one of `shape`; nullopt if none.
std::optional<ir::NodeId> view_of_shape(const ir::Graph& graph, ir::NodeId tensor,
                                        const Shape& shape, std::vector<ir::NodeId>& ops) {
  std::vector<ir::NodeId> views;
  while (shape_of(graph, tensor) != shape) {
    const std::optional<ir::NodeId> view = ir::producer_of(graph, tensor);
    if (!view || !is_view(graph, *view)) return std::nullopt;
    views.push_back(*view);
    tensor = graph.inputs_of(*view).front();
  }
  ops.insert(ops.end(), views.begin(), views.end());
  return tensor;
}

// K^T's side: K^T = a transpose of the last two axes of K [b, heads, len, d] (possibly with
// views around it: the dynamo exporter transposes a [b*heads, len, d] reshape), with K's head
// form found beneath, or the export's single Transpose(0,2,3,1) of the split keys (no
// head-form tensor: sequence form only).
std::optional<Side> key_side(const ir::Graph& graph, ir::NodeId keys_transposed) {
  const Shape& transposed_shape = shape_of(graph, keys_transposed);
  if (transposed_shape.size() != 4) return std::nullopt;
  Side side;
  std::vector<ir::NodeId> views;
  ir::NodeId beneath = keys_transposed;
  while (ir::producer_of(graph, beneath) && is_view(graph, *ir::producer_of(graph, beneath))) {
    views.push_back(*ir::producer_of(graph, beneath));
    beneath = graph.inputs_of(views.back()).front();
  }
  const std::optional<ir::NodeId> transpose = ir::producer_of(graph, beneath);
  if (!transpose) return std::nullopt;
  if (swaps_last_two(transpose_perm(graph, *transpose))) {
    Shape keys = transposed_shape;
    std::swap(keys[2], keys[3]);
    side.ops = views;
    side.ops.push_back(*transpose);
    const std::optional<ir::NodeId> heads =
        view_of_shape(graph, graph.inputs_of(*transpose).front(), keys, side.ops);
    if (!heads) return std::nullopt;
    side.heads = *heads;
    unrepeat(graph, side);
    head_split(graph, side.heads, {0, 2, 1, 3}, side);
    return side;
  }
  Side split;
  head_split(graph, keys_transposed, {0, 2, 3, 1}, split);
  if (!split.sequence) return std::nullopt;
  split.heads = keys_transposed;  // not a [b, heads, len, d] tensor: usable only merged
  split.ops = {};
  return split;
}

// The attention's result: the P V product's [b, h, s, d], and where the exporter merges heads
// (Transpose(0,2,1,3) then Reshape), the merged [b, s, h*d] tensor and those ops.
Side result_side(const ir::Graph& graph, ir::NodeId pv) {
  Side side;
  side.heads = result_of(graph, pv);
  const std::optional<ir::NodeId> transpose = only_consumer(graph, side.heads);
  if (!transpose || transpose_perm(graph, *transpose) != Shape{0, 2, 1, 3}) return side;
  const std::optional<ir::NodeId> reshape = only_consumer(graph, result_of(graph, *transpose));
  if (!reshape || !is_view(graph, *reshape)) return side;
  side.sequence = result_of(graph, *reshape);
  side.sequence_ops = {*transpose, *reshape};
  return side;
}

std::optional<ir::Op> attention_op(const ir::Graph& graph, const AttentionMatch& match, const Side& q,
                                   const Side& k, const Side& v, bool sequence_layout,
                                   const ir::Op& root) {
  const Shape& queries = shape_of(graph, q.heads);
  const Shape& values = shape_of(graph, v.heads);
  if (queries.size() != 4 || values.size() != 4) return std::nullopt;
  ir::AttentionAttrs attrs;
  attrs.b = queries[0];
  attrs.h = queries[1];
  attrs.s = queries[2];
  attrs.d = queries[3];
  attrs.kv_heads = values[1];
  attrs.kv_len = values[2];
  attrs.causal = match.causal;
  attrs.window = match.window;
  attrs.block_sparse = match.block_sparse;
  if (values[0] != attrs.b || values[3] != attrs.d || attrs.h % attrs.kv_heads != 0) {
    return std::nullopt;
  }
  if (!sequence_layout && shape_of(graph, k.heads) != values) return std::nullopt;
  if (!near(match.scale, 1.0 / std::sqrt(static_cast<double>(attrs.d)), kScaleTolerance)) {
    return std::nullopt;
  }
  ir::Op fused = fused_op(
      root, attrs, "Attention",
      {{"scale", match.scale}, {"layout", std::string(sequence_layout ? "sequence" : "heads")}});
  ir::validate_op(fused);
  return fused;
}

}  // namespace

PassStatistics FuseAttentionPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("fused", 0);
  FusionRewrite rewrite(graph);
  for (ir::NodeId softmax : graph.topological_ops()) {
    if (!softmax_over_last_axis(graph, softmax)) continue;
    AttentionMatch match;
    match.ops = {softmax};
    if (!scores_from(graph, graph.inputs_of(softmax).front(), match)) continue;
    const std::optional<ir::NodeId> pv = product_with_values(graph, softmax, match);
    if (!pv) continue;
    const std::vector<ir::NodeId> qk_inputs = graph.inputs_of(match.qk);
    Side q;
    q.heads = unscaled(graph, qk_inputs[0], match.scale, q.ops);
    head_split(graph, q.heads, {0, 2, 1, 3}, q);
    std::vector<ir::NodeId> key_scaling;
    const ir::NodeId keys_transposed = unscaled(graph, qk_inputs[1], match.scale, key_scaling);
    std::optional<Side> k = key_side(graph, keys_transposed);
    if (!k) continue;
    const bool keys_have_heads = !k->ops.empty();
    k->ops.insert(k->ops.end(), key_scaling.begin(), key_scaling.end());
    Side v;
    v.heads = graph.inputs_of(*pv)[1];
    unrepeat(graph, v);
    head_split(graph, v.heads, {0, 2, 1, 3}, v);
    const Side out = result_side(graph, *pv);
    const bool sequence_layout = q.sequence && k->sequence && v.sequence && out.sequence;
    // K's only tensor may be the transposed split (no head form): then merged or nothing.
    if (!sequence_layout && !keys_have_heads) continue;
    std::vector<ir::NodeId> ops = match.ops;
    ops.insert(ops.end(), {match.qk, *pv});
    const std::vector<const Side*> sides = {&q, &*k, &v, &out};
    for (const Side* side : sides) {
      ops.insert(ops.end(), side->ops.begin(), side->ops.end());
      if (sequence_layout) {
        ops.insert(ops.end(), side->sequence_ops.begin(), side->sequence_ops.end());
      }
    }
    std::vector<ir::NodeId> inputs;
    for (const Side* side : {sides[0], sides[1], sides[2]}) {
      inputs.push_back(sequence_layout ? *side->sequence : side->heads);
    }
    if (ir::element_count(shape_of(graph, inputs[1])) !=
        ir::element_count(shape_of(graph, inputs[2]))) {
      continue;  // K and V with different head counts: not one attention
    }
    const ir::NodeId root = sequence_layout ? *ir::producer_of(graph, *out.sequence) : *pv;
    const std::optional<ir::Op> fused =
        attention_op(graph, match, q, *k, v, sequence_layout, graph.op(root));
    if (!fused || !rewrite.self_contained(ops, root) || !rewrite.claim(ops)) continue;
    if (match.mask) inputs.push_back(*match.mask);
    rewrite.replace(ops, root, *fused, std::move(inputs));
    statistics.add("fused");
    if (match.causal) statistics.add("causal");
    if (match.window > 0) statistics.add("windowed");
    if (match.block_sparse) statistics.add("block-sparse");
    if (match.mask) statistics.add("masked");
    const auto& attrs = std::get<ir::AttentionAttrs>(fused->attrs);
    if (attrs.kv_heads < attrs.h) statistics.add("gqa");
  }
  statistics.add("ops erased", rewrite.apply());
  return statistics;
}

}  // namespace polyarch::passes
