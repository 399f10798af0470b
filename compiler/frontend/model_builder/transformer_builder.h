#pragma once
// Transformer encoders and decoders from their hyper-parameters, one prefill pass or one decode
// step. Ops per layer (pre-norm; post-norm moves each norm after its residual add):
//   norm1 -> q_proj, k_proj, v_proj -> attention -> o_proj -> add1 (residual)
//   norm2 -> ffn_up -> act -> ffn_down -> add2 (residual)
// with SwiGLU's ffn_gate -> act, ffn_up, then ffn_mul before ffn_down. Projections are GEMMs
// with m = the tokens processed (batch * seq in prefill, batch in decode) and the bias fused,
// as a compiler's MatMul+Add fusion leaves them. Attention is one fused op (AttentionAttrs):
// it reads Q, K and V in the projections' [tokens, heads * head_dim] layout, as fused kernels
// do, so the head split costs no transposes. In decode each layer's K and V caches are graph
// inputs of kv_len tokens; `k_cache` / `v_cache` ops (elementwise copy) append the new token's
// rows, and the new token attends to kv_len + 1 keys: the cache and itself.
// With a vocab: an `embedding` lookup of the token ids first (post-norm: then `embedding_norm`,
// as BERT), and an untied `lm_head` GEMM over every token last (pre-norm: after `final_norm`).
// Learned position and token-type tables (BERT, GPT-2) and rotary embeddings (LLaMA) are not
// modelled: lookups and elementwise rotations with no MACs.
#include "compiler/frontend/model_builder/model_config.h"
#include "compiler/ir/graph.h"

namespace polyarch::frontend {

ir::Graph build_transformer(const ModelConfig& model, const TransformerConfig& config);

}  // namespace polyarch::frontend
