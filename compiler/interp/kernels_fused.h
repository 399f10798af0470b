#pragma once
// Kernels of the ops operator fusion creates: scaled-dot-product attention, and the activation
// a Gemm or Conv2d applies to its result. Each computes what the fused primitives computed, in
// the same order and precision where it matters (fp32 products, double softmax), so fusion
// does not change a model's outputs beyond rounding.
#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/op.h"

namespace polyarch::interp {

// softmax(scale * Q K^T [+ mask] [causal]) V per head. Operands come in one of two layouts:
//  - heads:    Q [b, h, s, d], K and V [b, kv_heads, kv_len, d], result [b, h, s, d];
//  - sequence: Q [b, s, h*d], K and V [b, kv_len, kv_heads*d], result [b, s, h*d] (the
//    projections' results, before the exporter's head-splitting reshapes and transposes).
// Query head i reads key/value head i / (h / kv_heads) (GQA). `mask` (may be null) is added to
// the scores, broadcast to [b, h, s, kv_len]. Causal: query i sees keys j <= i + kv_len - s;
// a window or a block-sparse layout limits it further (ir::visible_key_runs): masked keys get
// no score at all, exactly as if the softmax ran over the visible keys only.
// A row with every score masked to -inf, or with no visible key, gives zeros, as exporters'
// isnan guards make it.
DenseTensor attention(const DenseTensor& q, const DenseTensor& k, const DenseTensor& v,
                      const DenseTensor* mask, const ir::AttentionAttrs& attrs, float scale,
                      bool sequence_layout);

// An Attention op on its operands (Q, K, V, optional mask): scale and layout from the node
// fusion gave it ("scale", "layout"), else 1/sqrt(d) and heads. The result takes
// `result_shape`.
DenseTensor execute_attention(const ir::Op& op, const std::vector<const DenseTensor*>& operands,
                              const Shape& result_shape);

// A Gemm's or Conv2d's fused activation; null for other ops and for none.
const ir::Activation* fused_activation(const ir::Op& op);
// The op without its fused activation: the product the activation reads.
ir::Op without_activation(const ir::Op& op);

// The fused activation applied to every element, as its Elementwise op computed it.
DenseTensor apply_activation(const DenseTensor& value, const ir::Activation& activation);

}  // namespace polyarch::interp
