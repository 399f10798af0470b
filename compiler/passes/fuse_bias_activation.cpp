#include "compiler/passes/fuse_bias_activation.h"

#include <algorithm>
#include <set>

#include "compiler/passes/fusion_match.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::passes {

namespace {

// A MatMul's bias: an initializer of n elements along the result's last axis.
bool bias_vector(const ir::Graph& graph, ir::NodeId tensor, int64_t n) {
  const ir::Tensor& bias = graph.tensor(tensor);
  return bias.role == ir::TensorRole::kWeight && !ir::producer_of(graph, tensor) &&
         bias.shape_known() && ir::element_count(bias.shape) == n &&
         (bias.shape.empty() || bias.shape.back() == n);
}

// The Add after a MatMul product that adds a bias vector; the bias.
std::optional<ir::NodeId> bias_add(const ir::Graph& graph, ir::NodeId gemm_op, ir::NodeId add) {
  const ir::Op& op = graph.op(gemm_op);
  const auto& gemm = std::get<ir::GemmAttrs>(op.attrs);
  // An imported Gemm scales C by beta: only MatMul products (and canonical ones) take a bias.
  const std::string source = source_type(op);
  if (gemm.bias || !gemm.b_shared || (source != "MatMul" && !source.empty()) ||
      elementwise_fn(graph, add, "add") == nullptr) {
    return std::nullopt;
  }
  const std::optional<ir::NodeId> bias = other_operand(graph, add, result_of(graph, gemm_op));
  if (!bias || !bias_vector(graph, *bias, gemm.n)) return std::nullopt;
  return bias;
}

// The constant of a Clip bound: the operand in ONNX position `position` (opset 11+), else the
// attribute (earlier opsets); nullopt when absent (unbounded) or not a constant.
std::optional<double> clip_bound(const ir::Graph& graph, ir::NodeId clip, int64_t position,
                                 const std::string& name, bool& constant) {
  const ir::OnnxNodeAttrs* node = graph.op(clip).lowered_from.get();
  const std::vector<ir::NodeId> present = graph.inputs_of(clip);
  int64_t slot = 0;
  for (std::size_t i = 0; i < present.size(); ++i, ++slot) {
    while (node != nullptr &&
           std::count(node->omitted_inputs.begin(), node->omitted_inputs.end(), slot) > 0) {
      ++slot;
    }
    if (slot != position) continue;
    const std::optional<double> value = scalar_value(graph, present[i]);
    constant = constant && value.has_value();
    return value;
  }
  if (node != nullptr && node->attributes.count(name) > 0) return float_attribute(*node, name, 0);
  return std::nullopt;
}

// The activation an Elementwise op computes on `product`, with its constants; nullopt for any
// other op (or a Clip with bounds computed at run time).
std::optional<ir::Activation> activation_of(const ir::Graph& graph, ir::NodeId op,
                                            ir::NodeId product) {
  static const std::set<std::string> kFunctions = {"relu", "clip",      "sigmoid",    "tanh",
                                                   "gelu", "leakyrelu", "hardsigmoid"};
  const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&graph.op(op).attrs);
  if (elementwise == nullptr || kFunctions.count(elementwise->fn) == 0 ||
      graph.inputs_of(op).front() != product) {
    return std::nullopt;
  }
  ir::Activation activation;
  activation.fn = elementwise->fn;
  const ir::OnnxNodeAttrs* node = graph.op(op).lowered_from.get();
  if (activation.fn == "clip") {
    bool constant = true;
    const std::optional<double> low = clip_bound(graph, op, 1, "min", constant);
    const std::optional<double> high = clip_bound(graph, op, 2, "max", constant);
    if (!constant) return std::nullopt;
    if (low) activation.params["min"] = *low;
    if (high) activation.params["max"] = *high;
    return activation;
  }
  if (graph.inputs_of(op).size() != 1) return std::nullopt;
  if (activation.fn == "leakyrelu") {
    activation.params["alpha"] = node ? float_attribute(*node, "alpha", 0.01) : 0.01;
  } else if (activation.fn == "hardsigmoid") {
    activation.params["alpha"] = node ? float_attribute(*node, "alpha", 0.2) : 0.2;
    activation.params["beta"] = node ? float_attribute(*node, "beta", 0.5) : 0.5;
  } else if (activation.fn == "gelu" && node != nullptr &&
             string_attribute(*node, "approximate", "none") == "tanh") {
    activation.params["approximate_tanh"] = 1.0;
  }
  return activation;
}

// The reader of `result` past views (free reshapes) that only pass it on: a view between a
// product and its epilogue (the dynamo exporter's [b*s, n] -> [b, s, n]) does not separate
// them. Sets `views` to the views and moves `result` to the last one's result.
std::optional<ir::NodeId> reader_past_views(const ir::Graph& graph, ir::NodeId& result,
                                            std::vector<ir::NodeId>& views) {
  views.clear();
  for (;;) {
    const std::optional<ir::NodeId> reader = only_consumer(graph, result);
    const auto* copy = reader ? std::get_if<ir::CopyAttrs>(&graph.op(*reader).attrs) : nullptr;
    if (copy == nullptr || !copy->is_view) return reader;
    views.push_back(*reader);
    result = result_of(graph, *reader);
  }
}

}  // namespace

PassStatistics FuseBiasActivationPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("fused", 0);
  FusionRewrite rewrite(graph);
  for (ir::NodeId op_id : graph.topological_ops()) {
    const ir::OpKind kind = graph.op(op_id).kind();
    if (kind != ir::OpKind::kGemm && kind != ir::OpKind::kConv2d) continue;
    ir::Op fused = graph.op(op_id);
    std::vector<ir::NodeId> ops = {op_id};
    std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
    ir::NodeId result = result_of(graph, op_id);
    std::vector<ir::NodeId> views;
    std::optional<ir::NodeId> next = reader_past_views(graph, result, views);
    bool fused_bias = false;
    if (kind == ir::OpKind::kGemm && next) {
      if (const std::optional<ir::NodeId> bias = bias_add(graph, op_id, *next)) {
        std::get<ir::GemmAttrs>(fused.attrs).bias = true;
        inputs.push_back(*bias);
        fused_bias = true;
        ops.insert(ops.end(), views.begin(), views.end());
        ops.push_back(*next);
        result = result_of(graph, *next);
        next = reader_past_views(graph, result, views);
      }
    }
    std::optional<ir::Activation>* slot = nullptr;
    if (auto* gemm = std::get_if<ir::GemmAttrs>(&fused.attrs)) slot = &gemm->activation;
    if (auto* conv = std::get_if<ir::Conv2dAttrs>(&fused.attrs)) slot = &conv->activation;
    std::optional<ir::Activation> activation;
    if (next && !slot->has_value() && graph.op(*next).dtype == fused.dtype) {
      activation = activation_of(graph, *next, result);
    }
    if (activation) {
      *slot = activation;
      ops.insert(ops.end(), views.begin(), views.end());
      ops.push_back(*next);
    }
    if (ops.size() == 1 || !rewrite.claim(ops)) continue;
    if (fused_bias) statistics.add("bias");
    if (activation) statistics.add("activation " + activation->fn);
    statistics.add("fused", int64_t{fused_bias} + int64_t{activation.has_value()});
    rewrite.replace(ops, ops.back(), std::move(fused), std::move(inputs));
  }
  statistics.add("ops erased", rewrite.apply());
  return statistics;
}

}  // namespace polyarch::passes
