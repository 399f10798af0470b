// Attention and fused activations.
#include "compiler/interp/kernels_fused.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/ir/attention_visibility.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::interp {

namespace {

// Flat offsets of one head's rows in either layout (see attention's comment in the header).
struct HeadIndex {
  bool sequence_layout;
  int64_t heads;   // of this operand: h for Q, kv_heads for K and V
  int64_t length;  // rows per head: s for Q, kv_len for K and V
  int64_t d;

  int64_t row(int64_t batch, int64_t head, int64_t position) const {
    if (sequence_layout) return ((batch * length + position) * heads + head) * d;
    return ((batch * heads + head) * length + position) * d;
  }
};

}  // namespace

DenseTensor attention(const DenseTensor& q, const DenseTensor& k, const DenseTensor& v,
                      const DenseTensor* mask, const ir::AttentionAttrs& attrs, float scale,
                      bool sequence_layout) {
  const HeadIndex q_index{sequence_layout, attrs.h, attrs.s, attrs.d};
  const HeadIndex kv_index{sequence_layout, attrs.kv_heads, attrs.kv_len, attrs.d};
  const int64_t q_elements = attrs.b * attrs.h * attrs.s * attrs.d;
  const int64_t kv_elements = attrs.b * attrs.kv_heads * attrs.kv_len * attrs.d;
  if (q.size() != q_elements || k.size() != kv_elements || v.size() != kv_elements ||
      attrs.kv_heads <= 0 || attrs.h % attrs.kv_heads != 0) {
    throw_runtime({}, "attention operands do not match its attributes");
  }
  const DenseTensor scores_mask =
      mask == nullptr ? DenseTensor{}
                      : broadcast_to(*mask, {attrs.b, attrs.h, attrs.s, attrs.kv_len});
  DenseTensor result = filled_tensor(q.shape);
  std::vector<float> scores(static_cast<std::size_t>(attrs.kv_len));
  const int64_t group = attrs.h / attrs.kv_heads;
  const float minus_infinity = -std::numeric_limits<float>::infinity();
  for (int64_t batch = 0; batch < attrs.b; ++batch) {
    for (int64_t head = 0; head < attrs.h; ++head) {
      const int64_t kv_head = head / group;
      for (int64_t i = 0; i < attrs.s; ++i) {
        const float* query = q.values.data() + q_index.row(batch, head, i);
        float peak = minus_infinity;
        std::fill(scores.begin(), scores.end(), minus_infinity);
        for (const ir::KeyRange& seen : ir::visible_key_runs(attrs, i, i)) {
          for (int64_t j = seen.first; j < seen.end; ++j) {
            const float* key = k.values.data() + kv_index.row(batch, kv_head, j);
            float dot = 0.0f;
            for (int64_t e = 0; e < attrs.d; ++e) dot += query[e] * key[e];
            float score = dot * scale;
            if (mask != nullptr) {
              score += scores_mask.values[static_cast<std::size_t>(
                  ((batch * attrs.h + head) * attrs.s + i) * attrs.kv_len + j)];
            }
            scores[static_cast<std::size_t>(j)] = score;
            peak = std::max(peak, score);
          }
        }
        float* out = result.values.data() + q_index.row(batch, head, i);
        if (peak == minus_infinity) continue;  // every key masked: zeros
        // The softmax kernel's arithmetic: double sums of exponentials of the shifted scores.
        double sum = 0.0;
        for (float score : scores) sum += std::exp(double{score} - peak);
        for (int64_t j = 0; j < attrs.kv_len; ++j) {
          const auto p = static_cast<float>(
              std::exp(double{scores[static_cast<std::size_t>(j)]} - peak) / sum);
          const float* value = v.values.data() + kv_index.row(batch, kv_head, j);
          for (int64_t e = 0; e < attrs.d; ++e) out[e] += p * value[e];
        }
      }
    }
  }
  return result;
}

DenseTensor execute_attention(const ir::Op& op, const std::vector<const DenseTensor*>& operands,
                              const Shape& result_shape) {
  const auto& attrs = std::get<ir::AttentionAttrs>(op.attrs);
  if (operands.size() < 3) passes::node_error(op, "attention needs Q, K and V operands");
  const ir::OnnxNodeAttrs* node = op.lowered_from.get();
  const double scale = node != nullptr ? passes::float_attribute(*node, "scale", 0.0) : 0.0;
  const bool sequence_layout =
      node != nullptr && passes::string_attribute(*node, "layout", "heads") == "sequence";
  DenseTensor result = attention(
      *operands[0], *operands[1], *operands[2], operands.size() > 3 ? operands[3] : nullptr, attrs,
      static_cast<float>(scale > 0.0 ? scale : 1.0 / std::sqrt(double(attrs.d))), sequence_layout);
  result.shape = result_shape;
  return result;
}

const ir::Activation* fused_activation(const ir::Op& op) {
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    return gemm->activation ? &*gemm->activation : nullptr;
  }
  if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    return conv->activation ? &*conv->activation : nullptr;
  }
  return nullptr;
}

ir::Op without_activation(const ir::Op& op) {
  ir::Op product = op;
  if (auto* gemm = std::get_if<ir::GemmAttrs>(&product.attrs)) gemm->activation.reset();
  if (auto* conv = std::get_if<ir::Conv2dAttrs>(&product.attrs)) conv->activation.reset();
  return product;
}

DenseTensor apply_activation(const DenseTensor& value, const ir::Activation& activation) {
  // The Elementwise kernel reads constants as node attributes (clip's min and max as in
  // opsets before 11, when they were attributes).
  ir::OnnxNodeAttrs node;
  node.op_type = activation.fn;
  for (const auto& [name, parameter] : activation.params) {
    if (name == "approximate_tanh") {
      if (parameter != 0.0) node.attributes["approximate"] = std::string("tanh");
    } else {
      node.attributes[name] = parameter;
    }
  }
  return elementwise(activation.fn, {&value}, value.shape, ir::DType::kFp32, &node);
}

}  // namespace polyarch::interp
