#include "compiler/interp/format_emulation.h"

#include <map>

#include "base/error.h"
#include "compiler/interp/execute_op.h"
#include "compiler/interp/kernels_fused.h"
#include "compiler/interp/quantised_operands.h"
#include "compiler/ir/graph_edit.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::interp {

namespace {

bool is_matrix_op(const ir::Op& op) {
  return op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d;
}

bool is_fp8(ir::DType dtype) { return fp8_format_of(dtype).has_value(); }

bool is_wide_float(ir::DType dtype) {
  return dtype == ir::DType::kFp32 || dtype == ir::DType::kFp16 || dtype == ir::DType::kBf16;
}

// A QDQ model's int8 op: its activation comes from a DequantizeLinear (through the layout pass's
// transposes), so the values it reads are already the model's int8 values times their scales.
// The op that produced `tensor`'s values, looking through the copies (transposes, views) that
// only move them.
std::optional<ir::NodeId> source_through_copies(const ir::Graph& graph, ir::NodeId tensor) {
  std::optional<ir::NodeId> producer = ir::producer_of(graph, tensor);
  while (producer && graph.op(*producer).kind() == ir::OpKind::kCopy &&
         graph.inputs_of(*producer).size() == 1) {
    producer = ir::producer_of(graph, graph.inputs_of(*producer).front());
  }
  return producer;
}

bool reads_dequantized(const ir::Graph& graph, ir::NodeId op_id) {
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
  if (inputs.empty()) return false;
  const std::optional<ir::NodeId> producer = source_through_copies(graph, inputs.front());
  if (!producer) return false;
  const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&graph.op(*producer).attrs);
  return elementwise != nullptr && elementwise->fn == "dequantize";
}

// The weight operand's output channels and reduction elements (mvm_engine.h's products): a
// Gemm's B is [k, n] ([n, k] with transB), a MatMul's [k, n] (leading axes of 1 allowed), a
// convolution's filters [k, c/groups, r, s] reduce over all but the first axis.
WeightAxes weight_axes(const ir::Op& op, const DenseTensor& weights) {
  Shape shape = weights.shape;
  if (op.kind() == ir::OpKind::kConv2d) {
    const int64_t channels = shape.empty() ? 1 : shape[0];
    const int64_t reduction = channels > 0 ? weights.size() / channels : 0;
    return {channels, reduction, reduction, 1};
  }
  while (shape.size() > 2 && shape.front() == 1) shape.erase(shape.begin());
  if (shape.size() == 1) return {1, shape[0], 0, 1};
  if (shape.size() != 2) {
    passes::node_error(op,
                       "--precision: a weight format needs one [k, n] weight matrix; this "
                       "op's weight operand has shape " +
                           passes::shape_string(weights.shape));
  }
  const bool transposed = op.lowered_from != nullptr && op.lowered_from->op_type == "Gemm" &&
                          passes::int_attribute(*op.lowered_from, "transB", 0) != 0;
  if (transposed) return {shape[0], shape[1], shape[1], 1};
  return {shape[1], shape[0], 1, shape[1]};
}

bool is_float_value(const DenseTensor& tensor) { return ir::is_float(tensor.dtype); }

// Whether the op's weights come from a DequantizeLinear of the model's own stored codes (a
// QDQ weight-only model, passes/qdq_weights.h): their values are the format's already.
bool weights_dequantized_by_model(const ir::Graph& graph, ir::NodeId op_id) {
  const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
  if (inputs.size() < 2) return false;
  const std::optional<ir::NodeId> producer = source_through_copies(graph, inputs[1]);
  if (!producer) return false;
  const ir::Op& source = graph.op(*producer);
  return source.lowered_from != nullptr && source.lowered_from->op_type == "DequantizeLinear";
}

// Weights as stored: in the weight format where the op has one.
DenseTensor stored_weights(const ir::Op& op, const DenseTensor& weights) {
  if (!op.weight_format) return weights;
  return weights_in_format(weights, weight_axes(op, weights), *op.weight_format);
}

// Weights as stored and then as the op's type (fp16, bf16, int8) reads them.
DenseTensor weights_for(const ir::Op& op, const DenseTensor& weights, ir::DType compute) {
  const DenseTensor stored = stored_weights(op, weights);
  if (compute == ir::DType::kInt8) {
    if (op.weight_format) return stored;
    return weights_in_format(stored, weight_axes(op, stored), {ir::DType::kInt8, 0});
  }
  return rounded_to(stored, compute);
}

DenseTensor activation_for(const DenseTensor& activation, ir::DType compute) {
  if (compute == ir::DType::kInt8) return int8_scaled(activation);
  return rounded_to(activation, compute);
}

bool has_no_emulation(ir::OpKind kind, ir::DType dtype) {
  const bool matrix = kind == ir::OpKind::kGemm || kind == ir::OpKind::kConv2d;
  if (is_wide_float(dtype)) return false;
  return !matrix || (dtype != ir::DType::kInt8 && !is_fp8(dtype));
}

}  // namespace

void check_emulated_policy(const passes::PrecisionPolicy& policy, const std::string& text) {
  std::vector<std::pair<ir::OpKind, ir::DType>> typed(policy.by_kind.begin(), policy.by_kind.end());
  if (policy.target) {
    for (ir::OpKind kind :
         {ir::OpKind::kGemm, ir::OpKind::kConv2d, ir::OpKind::kAttention, ir::OpKind::kElementwise,
          ir::OpKind::kReduce, ir::OpKind::kNorm, ir::OpKind::kSoftmax, ir::OpKind::kPool,
          ir::OpKind::kEmbedding, ir::OpKind::kCopy}) {
      if (policy.by_kind.count(kind) == 0) typed.emplace_back(kind, *policy.target);
    }
  }
  std::string refused;
  for (const auto& [kind, dtype] : typed) {
    if (has_no_emulation(kind, dtype)) {
      refused += (refused.empty() ? "" : ", ") + std::string(ir::op_kind_name(kind)) + " in " +
                 std::string(ir::dtype_name(dtype));
    }
  }
  if (!refused.empty()) {
    throw_bad_input({}, "--precision " + text +
                            " with --functional: the reference interpreter "
                            "emulates fp32, fp16 and bf16 in every op and fp8 and int8 in gemm "
                            "and conv2d only (a per-tensor scaled product); it has no emulation "
                            "of " +
                            refused);
  }
  if (policy.kv_cache && !is_wide_float(*policy.kv_cache) && !is_fp8(*policy.kv_cache) &&
      *policy.kv_cache != ir::DType::kInt8 && *policy.kv_cache != ir::DType::kInt4) {
    throw_bad_input({}, "--precision " + text +
                            " with --functional: the reference interpreter "
                            "emulates KV caches in fp16, bf16, fp8, int8 and int4, not " +
                            std::string(ir::dtype_name(*policy.kv_cache)));
  }
}

std::optional<std::vector<DenseTensor>> operands_in_formats(
    const ir::Graph& graph, ir::NodeId op_id, const std::vector<const DenseTensor*>& operands) {
  const ir::Op& op = graph.op(op_id);
  if (op.kind() == ir::OpKind::kFrontend || !op.dtype) return std::nullopt;
  const ir::DType compute = *op.dtype;
  const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
  const bool kv_stored = attention != nullptr && attention->kv_dtype.has_value();
  if (compute == ir::DType::kFp32 && !op.weight_format && !kv_stored) return std::nullopt;
  if (!is_wide_float(compute)) {
    // The model's own integer ops (indices, shapes, QDQ data), QDQ int8 products, and fp8
    // products, which have their own path (execute_fp8_product).
    const bool emulated = is_matrix_op(op) && compute == ir::DType::kInt8;
    if (!emulated || reads_dequantized(graph, op_id)) return std::nullopt;
  }
  std::vector<DenseTensor> converted;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const DenseTensor& operand = *operands[i];
    if (!is_float_value(operand)) {
      converted.push_back(operand);
    } else if (is_matrix_op(op) && i == 0) {
      converted.push_back(activation_for(operand, compute));
    } else if (is_matrix_op(op) && i == 1 && weights_dequantized_by_model(graph, op_id)) {
      converted.push_back(rounded_to(operand, compute));
    } else if (is_matrix_op(op) && i == 1) {
      converted.push_back(weights_for(op, operand, compute));
    } else if (kv_stored && (i == 1 || i == 2)) {
      converted.push_back(
          rounded_to(kv_in_format(operand, *attention->kv_dtype, attention->d), compute));
    } else {
      // Bias and other operands: in the op's float type; an 8-bit op adds its bias in fp32, as
      // an fp8 GEMM's epilogue does.
      converted.push_back(is_wide_float(compute) ? rounded_to(operand, compute) : operand);
    }
  }
  return converted;
}

bool is_fp8_product(const ir::Graph& graph, ir::NodeId op_id) {
  const ir::Op& op = graph.op(op_id);
  return op.kind() != ir::OpKind::kFrontend && is_matrix_op(op) && op.dtype && is_fp8(*op.dtype) &&
         !reads_dequantized(graph, op_id);
}

std::vector<DenseTensor> execute_fp8_product(const ir::Op& op,
                                             const std::vector<const DenseTensor*>& operands,
                                             const std::vector<const ir::Tensor*>& results) {
  if (operands.size() < 2) passes::node_error(op, "a product needs activation and weights");
  const Fp8Format format = *fp8_format_of(*op.dtype);
  const Fp8Tensor activation = fp8_quantised(*operands[0], format);
  const Fp8Tensor weights = fp8_quantised(stored_weights(op, *operands[1]), format);
  // The op is affine in its product: with zero bias operands the kernel gives alpha x A'B',
  // and with zero A' and B' it gives the bias term alone (beta C, a per-filter bias), each
  // exactly, so the fp32 sum can be rescaled on its own before the bias joins it.
  const ir::Op product_op = without_activation(op);
  std::vector<DenseTensor> zeros;
  zeros.reserve(operands.size());
  for (const DenseTensor* operand : operands) zeros.push_back(filled_tensor(operand->shape));
  std::vector<const DenseTensor*> read = {&activation.values, &weights.values};
  for (std::size_t i = 2; i < operands.size(); ++i) read.push_back(&zeros[i]);
  std::vector<DenseTensor> computed = execute_op(product_op, read, results);
  const float scale = activation.scale * weights.scale;
  for (float& value : computed.at(0).values) value *= scale;
  if (operands.size() > 2) {
    std::vector<const DenseTensor*> bias_only = {&zeros[0], &zeros[1]};
    for (std::size_t i = 2; i < operands.size(); ++i) bias_only.push_back(operands[i]);
    const DenseTensor bias = execute_op(product_op, bias_only, results).at(0);
    for (std::size_t i = 0; i < bias.values.size(); ++i) computed[0].values[i] += bias.values[i];
  }
  if (const ir::Activation* fused = fused_activation(op)) {
    computed[0] = apply_activation(computed[0], *fused);
  }
  return computed;
}

void round_results(const ir::Op& op, std::vector<DenseTensor>& results) {
  if (op.kind() == ir::OpKind::kFrontend || !op.dtype) return;
  ir::DType written = *op.dtype;
  if (is_fp8(written) && is_matrix_op(op)) written = ir::DType::kBf16;
  if (written != ir::DType::kFp16 && written != ir::DType::kBf16) return;
  for (DenseTensor& result : results) {
    if (is_float_value(result)) result = rounded_to(result, written);
  }
}

nlohmann::ordered_json precision_description(const std::string& text,
                                             const passes::PrecisionPolicy& policy,
                                             const ir::Graph& graph) {
  std::map<std::string, int64_t> ops_by_type;
  int64_t kv_caches = 0, weight_formats = 0;
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::Op& op = graph.op(id);
    if (op.kind() == ir::OpKind::kFrontend) continue;
    ++ops_by_type[op.dtype ? std::string(ir::dtype_name(*op.dtype)) : "fp32"];
    if (op.weight_format) ++weight_formats;
    const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
    if (attention != nullptr && attention->kv_dtype) ++kv_caches;
  }
  nlohmann::ordered_json notes = nlohmann::ordered_json::array();
  if (policy.kv_cache && kv_caches == 0) {
    notes.push_back("kv_cache=" + std::string(ir::dtype_name(*policy.kv_cache)) +
                    " applies to no op: the model has no fused attention op whose type is wider "
                    "(its attention products, if any, are gemm ops in the scheme's type)");
  }
  if (policy.weights && weight_formats == 0) {
    notes.push_back("weights=" + std::string(ir::dtype_name(policy.weights->dtype)) +
                    " applies to no op: no gemm or conv2d with weights computes in a wider float "
                    "type");
  }
  nlohmann::ordered_json description = {{"scheme", text}, {"ops", ops_by_type}};
  if (!notes.empty()) description["notes"] = notes;
  return description;
}

nlohmann::ordered_json op_formats(const ir::Op& op) {
  nlohmann::ordered_json formats = nlohmann::ordered_json::object();
  formats["dtype"] = op.dtype ? std::string(ir::dtype_name(*op.dtype)) : "fp32";
  if (op.weight_format) {
    std::string format(ir::dtype_name(op.weight_format->dtype));
    if (op.weight_format->group > 0) format += ":g" + std::to_string(op.weight_format->group);
    formats["weight_format"] = format;
  }
  if (const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
      attention != nullptr && attention->kv_dtype) {
    formats["kv_dtype"] = std::string(ir::dtype_name(*attention->kv_dtype));
  }
  return formats;
}

}  // namespace polyarch::interp
