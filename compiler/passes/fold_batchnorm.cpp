#include "compiler/passes/fold_batchnorm.h"

#include <cmath>

#include "compiler/passes/fusion_match.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

namespace {

// BatchNormalization's operands after x, in ONNX order.
enum Parameter { kScale, kShift, kMean, kVariance, kParameters };

bool initializer(const ir::Graph& graph, ir::NodeId tensor) {
  return graph.tensor(tensor).role == ir::TensorRole::kWeight && !ir::producer_of(graph, tensor);
}

// A new fp32 constant `name` of `shape` holding `values` (nullopt: shape only).
ir::NodeId add_constant(ir::Graph& graph, const std::string& name, std::vector<int64_t> shape,
                        const std::optional<std::vector<double>>& values) {
  ir::Tensor tensor;
  tensor.name = name;
  tensor.shape = std::move(shape);
  tensor.dtype = ir::DType::kFp32;
  tensor.role = ir::TensorRole::kWeight;
  if (values) {
    Values contents = empty_values(ir::DType::kFp32, tensor.shape);
    contents.reals = *values;
    store_values(contents, tensor);
  } else {
    tensor.external_data_missing = true;
  }
  return graph.add_tensor(std::move(tensor));
}

struct Folded {
  std::optional<std::vector<double>> weight;
  std::optional<std::vector<double>> bias;
};

// The folded weight and bias values; nullopt members when the model has no values.
std::optional<Folded> fold_values(const ir::Graph& graph, ir::NodeId weight,
                                  std::optional<ir::NodeId> bias,
                                  const std::vector<ir::NodeId>& parameters, double epsilon,
                                  int64_t channels) {
  std::vector<std::optional<Values>> read;
  for (ir::NodeId parameter : parameters) read.push_back(read_values(graph.tensor(parameter)));
  const std::optional<Values> weights = read_values(graph.tensor(weight));
  const std::optional<Values> biases =
      bias ? read_values(graph.tensor(*bias)) : std::optional<Values>();
  bool complete = weights.has_value() && (!bias || biases.has_value());
  for (const auto& values : read) complete = complete && values && values->size() == channels;
  if (!complete) {
    // Without values only the shapes fold, and only where nothing can be computed anyway.
    if (graph.functional_available()) return std::nullopt;
    return Folded{};
  }
  Folded folded{std::vector<double>(), std::vector<double>()};
  const int64_t per_channel = weights->size() / channels;
  for (int64_t k = 0; k < channels; ++k) {
    const auto at = static_cast<std::size_t>(k);
    const double scale = read[kScale]->real(at) / std::sqrt(read[kVariance]->real(at) + epsilon);
    for (int64_t i = 0; i < per_channel; ++i) {
      folded.weight->push_back(weights->real(static_cast<std::size_t>(k * per_channel + i)) *
                               scale);
    }
    const double conv_bias = biases ? biases->real(at) : 0.0;
    folded.bias->push_back((conv_bias - read[kMean]->real(at)) * scale + read[kShift]->real(at));
  }
  return folded;
}

}  // namespace

PassStatistics FoldConvBatchNormPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  statistics.add("folded", 0);
  FusionRewrite rewrite(graph);
  for (ir::NodeId conv_id : graph.topological_ops()) {
    const auto* conv = std::get_if<ir::Conv2dAttrs>(&graph.op(conv_id).attrs);
    if (conv == nullptr || conv->activation) continue;
    const std::optional<ir::NodeId> norm = only_consumer(graph, result_of(graph, conv_id));
    if (!norm || elementwise_fn(graph, *norm, "batchnorm") == nullptr) continue;
    // Training mode normalises by the batch's statistics, which no weight can hold.
    const ir::OnnxNodeAttrs* source = graph.op(*norm).lowered_from.get();
    if (source != nullptr && int_attribute(*source, "training_mode", 0) != 0) continue;
    const std::vector<ir::NodeId> norm_inputs = graph.inputs_of(*norm);
    const std::vector<ir::NodeId> conv_inputs = graph.inputs_of(conv_id);
    if (norm_inputs.size() != 1 + kParameters || norm_inputs[0] != result_of(graph, conv_id) ||
        graph.op(*norm).dtype != graph.op(conv_id).dtype) {
      continue;
    }
    const std::vector<ir::NodeId> parameters(norm_inputs.begin() + 1, norm_inputs.end());
    bool constant = initializer(graph, conv_inputs.at(1));
    for (ir::NodeId parameter : parameters) {
      constant = constant && initializer(graph, parameter) &&
                 ir::element_count(graph.tensor(parameter).shape) == conv->k;
    }
    const std::optional<ir::NodeId> bias =
        conv_inputs.size() > 2 ? std::optional(conv_inputs[2]) : std::nullopt;
    if (!constant || (bias && !initializer(graph, *bias))) continue;
    const ir::OnnxNodeAttrs* node = graph.op(*norm).lowered_from.get();
    const double epsilon = node != nullptr ? float_attribute(*node, "epsilon", 1e-5) : 1e-5;
    const std::optional<Folded> folded =
        fold_values(graph, conv_inputs[1], bias, parameters, epsilon, conv->k);
    if (!folded || !rewrite.claim({conv_id, *norm})) continue;
    // Adding tensors below may move the graph's nodes: copy what is still needed first.
    const int64_t channels = conv->k;
    ir::Op fused = graph.op(conv_id);
    std::get<ir::Conv2dAttrs>(fused.attrs).bias = true;
    const ir::Tensor& weight = graph.tensor(conv_inputs[1]);
    const std::string weight_name = weight.name + ".bn_folded";
    const std::vector<int64_t> weight_shape = weight.shape;
    const ir::NodeId new_weight = add_constant(graph, weight_name, weight_shape, folded->weight);
    const ir::NodeId new_bias =
        add_constant(graph, fused.name + ".bias_bn_folded", {channels}, folded->bias);
    rewrite.replace({conv_id, *norm}, *norm, std::move(fused),
                    {conv_inputs[0], new_weight, new_bias});
    statistics.add("folded");
  }
  statistics.add("ops erased", rewrite.apply());
  return statistics;
}

}  // namespace polyarch::passes
