#include "compiler/frontend/layer_graph.h"

#include <type_traits>
#include <variant>

namespace polyarch::frontend {

namespace {

using Shape = std::vector<int64_t>;

struct Operand {
  std::string suffix;  // appended to the op's name
  Shape shape;
  ir::TensorRole role = ir::TensorRole::kActivation;
};

// The operands an op of this kind reads, in the order lowering gives the same kind from ONNX,
// and its result's shape. Gemm and Conv2d leave the result empty: infer_shapes derives it. It
// does not for the other kinds, which keep the shapes their frontend gives.
struct LayerTensors {
  std::vector<Operand> operands;
  Shape output;
};

LayerTensors gemm_tensors(const ir::GemmAttrs& gemm) {
  // A batched GEMM in a layer list (attention's QK^T, PV) has a B operand per batch entry.
  Shape weight = {gemm.k, gemm.n};
  if (gemm.batch > 1) weight.insert(weight.begin(), gemm.batch);
  return {{{".in", {gemm.batch, gemm.m, gemm.k}}, {".w", weight, ir::TensorRole::kWeight}}, {}};
}

LayerTensors conv_tensors(const ir::Conv2dAttrs& conv) {
  return {{{".in", {conv.n, conv.c, conv.h, conv.w}},
           {".w", {conv.k, conv.c / conv.groups, conv.r, conv.s}, ir::TensorRole::kWeight}},
          {}};
}

// Q [b, h, s, d] against K and V [b, kv_heads, kv_len, d]: activations (a KV cache in decode).
LayerTensors attention_tensors(const ir::AttentionAttrs& attention) {
  const Shape query = {attention.b, attention.h, attention.s, attention.d};
  const Shape key_value = {attention.b, attention.kv_heads, attention.kv_len, attention.d};
  return {{{".q", query}, {".k", key_value}, {".v", key_value}}, query};
}

// One full-size operand per input, as lowering counts them.
LayerTensors elementwise_tensors(const ir::ElementwiseAttrs& elementwise) {
  LayerTensors tensors;
  for (int64_t i = 0; i < elementwise.inputs; ++i) {
    const std::string suffix = elementwise.inputs == 1 ? ".in" : ".in" + std::to_string(i);
    tensors.operands.push_back({suffix, {elementwise.elements}});
  }
  tensors.output = {elementwise.elements};
  return tensors;
}

// ONNX LayerNormalization's X, Scale and B; RMSNorm has no shift.
LayerTensors norm_tensors(const ir::NormAttrs& norm) {
  LayerTensors tensors = {
      {{".in", {norm.rows, norm.cols}}, {".scale", {norm.cols}, ir::TensorRole::kWeight}},
      {norm.rows, norm.cols}};
  if (norm.kind == ir::NormKind::kLayerNorm) {
    tensors.operands.push_back({".bias", {norm.cols}, ir::TensorRole::kWeight});
  }
  return tensors;
}

LayerTensors layer_tensors(const ir::Op& layer) {
  return std::visit(
      [&](const auto& op) -> LayerTensors {
        using Attrs = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Attrs, ir::GemmAttrs>) {
          return gemm_tensors(op);
        } else if constexpr (std::is_same_v<Attrs, ir::Conv2dAttrs>) {
          return conv_tensors(op);
        } else if constexpr (std::is_same_v<Attrs, ir::AttentionAttrs>) {
          return attention_tensors(op);
        } else if constexpr (std::is_same_v<Attrs, ir::ElementwiseAttrs>) {
          return elementwise_tensors(op);
        } else if constexpr (std::is_same_v<Attrs, ir::NormAttrs>) {
          return norm_tensors(op);
        } else if constexpr (std::is_same_v<Attrs, ir::ReduceAttrs>) {
          return {{{".in", {op.rows, op.cols}}}, {op.rows}};
        } else if constexpr (std::is_same_v<Attrs, ir::SoftmaxAttrs>) {
          return {{{".in", {op.rows, op.cols}}}, {op.rows, op.cols}};
        } else if constexpr (std::is_same_v<Attrs, ir::PoolAttrs>) {
          return {{{".in", {op.n, op.c, op.h, op.w}}}, {op.n, op.c, op.out_h(), op.out_w()}};
        } else {
          // Embeddings, copies and imported nodes come only from model frontends.
          throw_runtime(layer.where, "op '" + layer.name + "' (" + ir::op_type_name(layer) +
                                         ") has no standalone layer form");
        }
      },
      layer.attrs);
}

// Weights in a weight format and a KV cache in its own type are stored in it; the rest in the
// op's type.
ir::DType stored_dtype(const ir::Op& op, const Operand& operand, ir::DType op_dtype) {
  const bool matrix = op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d;
  if (matrix && operand.role == ir::TensorRole::kWeight && op.weight_format) {
    return op.weight_format->dtype;
  }
  const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
  if (attention != nullptr && attention->kv_dtype &&
      (operand.suffix == ".k" || operand.suffix == ".v")) {
    return *attention->kv_dtype;
  }
  return op_dtype;
}

}  // namespace

ir::NodeId add_standalone_layer(ir::Graph& graph, ir::Op op) {
  ir::validate_op(op);
  const LayerTensors tensors = layer_tensors(op);
  // Tensors need some element type; the op's own decides when given, else int8 as a
  // placeholder until a unit is chosen (the op's nullopt dtype is what mappers look at).
  const ir::DType dtype = op.dtype.value_or(ir::DType::kInt8);
  const std::string name = op.name;
  std::vector<ir::NodeId> operands;
  for (const Operand& operand : tensors.operands) {
    operands.push_back(graph.add_tensor(
        {name + operand.suffix, operand.shape, stored_dtype(op, operand, dtype), operand.role}));
  }
  const ir::NodeId op_id = graph.add_op(std::move(op));
  const ir::NodeId output =
      graph.add_tensor({name + ".out", tensors.output, dtype, ir::TensorRole::kOutput});
  for (ir::NodeId operand : operands) graph.connect(operand, op_id);
  graph.connect(op_id, output);
  return op_id;
}

std::string repeated_layer_name(const std::string& name, int64_t copy) {
  return name + "." + std::to_string(copy);
}

void add_repeated_layer(ir::Graph& graph, ir::Op op, int64_t repeat) {
  const std::string name = op.name;
  ir::Op first = op;
  first.name = repeated_layer_name(name, 1);
  const ir::NodeId first_id = add_standalone_layer(graph, std::move(first));
  const std::vector<ir::NodeId> operands = graph.inputs_of(first_id);
  const ir::Tensor first_result = graph.tensor(graph.outputs_of(first_id).at(0));
  for (int64_t copy = 2; copy <= repeat; ++copy) {
    ir::Op next = op;
    next.name = repeated_layer_name(name, copy);
    ir::Tensor result = first_result;
    result.name = next.name + ".out";
    result.storage_of = first_result.name;
    const ir::NodeId op_id = graph.add_op(std::move(next));
    const ir::NodeId output = graph.add_tensor(std::move(result));
    for (ir::NodeId operand : operands) graph.connect(operand, op_id);
    graph.connect(op_id, output);
  }
}

}  // namespace polyarch::frontend
