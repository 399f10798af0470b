#include "compiler/ir/stored_operands.h"

#include <algorithm>
#include <cmath>

#include "base/checked_math.h"
#include "compiler/ir/graph_edit.h"
#include "compiler/ir/weight_sparsity.h"

namespace polyarch::ir {

namespace {

// Weights per output channel (the reduction axis) and output channels of an op with weights.
struct WeightMatrix {
  int64_t reduction = 0;
  int64_t channels = 0;
};

WeightMatrix weight_matrix(const Op& op) {
  if (const auto* gemm = std::get_if<GemmAttrs>(&op.attrs); gemm != nullptr && gemm->b_shared) {
    return {gemm->k, gemm->n};
  }
  if (const auto* conv = std::get_if<Conv2dAttrs>(&op.attrs)) {
    return {checked_mul(conv->c / conv->groups, checked_mul(conv->r, conv->s, "filter size"),
                        "filter size"),
            conv->k};
  }
  return {};
}

}  // namespace

int64_t weight_scale_count(const Op& op) {
  if (!op.weight_format) return 0;
  const WeightMatrix matrix = weight_matrix(op);
  const int64_t group = op.weight_format->group;
  const int64_t per_channel = group > 0 ? (matrix.reduction + group - 1) / group : 1;
  return checked_mul(matrix.channels, per_channel, "weight scales");
}

int64_t weight_scale_bytes(const Op& op) {
  return checked_mul(weight_scale_count(op), kScaleBytes, "scale bytes");
}

int64_t weight_storage_bytes(const Op& op, DType op_dtype) {
  const int64_t weights = weight_elements(op);
  if (weights == 0) return 0;
  const DType stored = op.weight_format ? op.weight_format->dtype : op_dtype;
  const int64_t values = op.weight_sparsity
                             ? stored_weight_bytes(weights, stored, *op.weight_sparsity)
                             : storage_bytes(weights, stored);
  return checked_add(values, weight_scale_bytes(op), "weight bytes");
}

int64_t kv_cache_elements(const AttentionAttrs& attention) {
  return checked_mul(checked_mul(2 * attention.b, attention.kv_heads, "KV elements"),
                     checked_mul(attention.kv_len, attention.d, "KV elements"), "KV elements");
}

int64_t kv_scale_bytes_per_tensor(const AttentionAttrs& attention) {
  if (!attention.kv_dtype || is_float(*attention.kv_dtype)) return 0;
  return checked_mul(checked_mul(attention.b, attention.kv_heads, "scales"),
                     checked_mul(attention.kv_len, kScaleBytes, "scale bytes"), "scale bytes");
}

int64_t kv_cache_bytes(const AttentionAttrs& attention, DType op_dtype) {
  return checked_add(
      storage_bytes(kv_cache_elements(attention), attention.kv_dtype.value_or(op_dtype)),
      checked_mul(2, kv_scale_bytes_per_tensor(attention), "scale bytes"), "KV bytes");
}

int64_t kv_stored_bytes(const AttentionAttrs& attention, DType op_dtype, int64_t elements) {
  return static_cast<int64_t>(
      std::ceil(static_cast<double>(elements) * kv_element_bytes(attention, op_dtype)));
}

double kv_element_bytes(const AttentionAttrs& attention, DType op_dtype) {
  return static_cast<double>(kv_cache_bytes(attention, op_dtype)) /
         static_cast<double>(kv_cache_elements(attention));
}

int64_t widen_ops_per_pair(DType stored, DType op_dtype) {
  if (stored == op_dtype) return 0;
  return is_float(stored) ? 1 : 2;
}

int64_t kv_widen_ops_per_pair(const AttentionAttrs& attention, DType op_dtype) {
  return widen_ops_per_pair(attention.kv_dtype.value_or(op_dtype), op_dtype);
}

int64_t stored_tensor_bytes(const Graph& graph, NodeId tensor, const UnitDType& unit_dtype) {
  const Tensor& stored = graph.tensor(tensor);
  const int64_t elements = element_count(stored.shape);
  for (NodeId consumer : consumers_of(graph, tensor)) {
    const Op& op = graph.op(consumer);
    const std::vector<NodeId> inputs = graph.inputs_of(consumer);
    const auto position = std::find(inputs.begin(), inputs.end(), tensor) - inputs.begin();
    if (op.weight_format && position == 1 && weight_elements(op) > 0) {
      return checked_add(storage_bytes(elements, op.weight_format->dtype), weight_scale_bytes(op),
                         "tensor bytes");
    }
    const auto* attention = std::get_if<AttentionAttrs>(&op.attrs);
    if (attention != nullptr && attention->kv_dtype && (position == 1 || position == 2)) {
      return checked_add(storage_bytes(elements, *attention->kv_dtype),
                         kv_scale_bytes_per_tensor(*attention), "tensor bytes");
    }
  }
  // A tensor the precision pass retyped the ops of is stored in the type its first reader
  // computes in (an imported op computes in its first operand's type, so an unretyped model
  // stores every tensor as it is typed, a Cast's result included); a graph output in its
  // producer's. Tensors of ops that name no type keep their own.
  const std::vector<NodeId> readers = consumers_of(graph, tensor);
  const std::optional<NodeId> producer = producer_of(graph, tensor);
  const std::optional<NodeId> typed_by_id =
      !readers.empty() ? std::optional<NodeId>(readers.front()) : producer;
  const Op* typed_by = typed_by_id ? &graph.op(*typed_by_id) : nullptr;
  if (typed_by != nullptr && !typed_by->dtype && typed_by->kind() != OpKind::kFrontend &&
      unit_dtype) {
    if (const std::optional<DType> computed = unit_dtype(*typed_by_id)) {
      return storage_bytes(elements, *computed);
    }
  }
  const bool retyped = typed_by != nullptr && typed_by->dtype && is_float(stored.dtype) &&
                       is_float(*typed_by->dtype);
  return storage_bytes(elements, retyped ? *typed_by->dtype : stored.dtype);
}

}  // namespace polyarch::ir
