#pragma once
// Attention as an unfused kernel library runs it: three ops with the scores in memory between
// them. S = Q·Kᵀ (the 1/sqrt(d) scale folded in), P = softmax(S) (the mask applied on the way),
// O = P·V. Under grouped-query attention each K/V head serves h/kv_heads query heads, so both
// products are batched over b·kv_heads with the group's queries as rows. A causal mask, a
// window or a block-sparse layout saves nothing here: the products compute every score, as a
// library GEMM does, and the softmax masks them. That mask is timed, not carried: the softmax
// op has no field for it, so the expansion is for pricing; functional runs interpret the fused
// op (interp/kernels_fused.h), which applies the pattern exactly.
#include <string>

#include "compiler/ir/graph.h"
#include "compiler/ir/graph_edit.h"

namespace polyarch::lower {

struct UnfusedAttention {
  ir::Op scores;   // gemm: Q·Kᵀ
  ir::Op softmax;  // softmax over each query's kv_len scores
  ir::Op context;  // gemm: P·V
};

// The three ops of an attention op (named "<op>.qk", "<op>.softmax", "<op>.pv").
UnfusedAttention unfused_attention_ops(const ir::Op& attention);

// The expansion that replaces attention op `attention_op` of `graph` by those ops: its first
// three operands are Q, K and V; a fourth (a mask) goes to the softmax.
ir::OpExpansion unfused_attention_expansion(const ir::Graph& graph, ir::NodeId attention_op);

}  // namespace polyarch::lower
