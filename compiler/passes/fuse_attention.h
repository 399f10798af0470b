#pragma once
// Scaled-dot-product attention recognised from its primitives into one Attention op:
//   scores = Q K^T, scaled by Mul/Div constants (on the scores, or on Q and K^T as the
//   torch exporter splits sqrt(scale) between them) whose product must be 1/sqrt(d);
//   optionally an additive mask (Add: the mask stays an operand, e.g. BERT's attention_mask
//   path) and a Where(constant, scores, very negative fill) whose constant is causal, a sliding
//   window or a block layout (block_mask_pattern.h);
//   Softmax over keys; optionally the exporter's Where(IsNaN(P), 0, P) guard; then P V.
// The head-splitting Reshape/Transpose chains that lead to Q, K and V and the head-merging
// Transpose/Reshape after P V are absorbed when all four are present (the op then reads the
// projections' [b, seq, heads*d] results, as a fused attention kernel does); otherwise the op
// reads the [b, heads, seq, d] tensors. K and V repeated per query head by the exporter
// (Unsqueeze/Expand/Reshape, GQA's repeat_kv) are read un-repeated: kv_heads < h.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Counters: "fused" (all), "causal", "windowed", "block-sparse", "masked", "gqa", "ops erased".
class FuseAttentionPass : public Pass {
 public:
  std::string_view name() const override { return "fuse-attention"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
