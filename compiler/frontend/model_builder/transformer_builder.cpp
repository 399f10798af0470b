#include "compiler/frontend/model_builder/transformer_builder.h"

#include "compiler/frontend/model_builder/model_graph.h"
#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::frontend {

namespace {

bool decode(const TransformerConfig& config) { return config.phase == TransformerPhase::kDecode; }

bool pre_norm(const TransformerConfig& config) {
  return config.norm_placement == NormPlacement::kPre;
}

// Writes one decode step's K or V rows into the layer's cache in place (as serving runtimes'
// cache kernels do): moves only the new rows, and yields the whole cache the attention reads.
ir::NodeId append_to_cache(ModelGraph& graph, const TransformerConfig& config,
                           const std::string& name, ir::NodeId new_rows) {
  const int64_t width = config.kv_heads * config.head_dim();
  const ir::NodeId cache = graph.input(name + ".past", {config.batch, config.kv_len, width});
  ir::ElementwiseAttrs copy;
  copy.fn = "copy";
  copy.elements = checked_mul(config.batch, width, "cache rows");
  copy.inputs = 1;  // the cache is written, not read
  return graph.add(name, copy, {new_rows, cache}, {config.batch, config.keys(), width});
}

ir::NodeId self_attention(ModelGraph& graph, const TransformerConfig& config,
                          const std::string& prefix, ir::NodeId x) {
  const int64_t head_dim = config.head_dim();
  const ir::NodeId query =
      linear(graph, prefix + ".q_proj", x, config.heads * head_dim, config.bias);
  ir::NodeId key = linear(graph, prefix + ".k_proj", x, config.kv_heads * head_dim, config.bias);
  ir::NodeId value = linear(graph, prefix + ".v_proj", x, config.kv_heads * head_dim, config.bias);
  if (decode(config)) {
    key = append_to_cache(graph, config, prefix + ".k_cache", key);
    value = append_to_cache(graph, config, prefix + ".v_cache", value);
  }
  ir::AttentionAttrs attention;
  attention.b = config.batch;
  attention.h = config.heads;
  attention.kv_heads = config.kv_heads;
  attention.s = config.queries();
  attention.kv_len = config.keys();
  attention.d = head_dim;
  attention.causal = config.causal;
  attention.window = config.window;
  if (config.block_sparse) {
    attention.block_sparse = std::make_shared<const ir::BlockSparseLayout>(
        ir::bigbird_layout(config.block_sparse->spec, config.block_sparse->block, attention.s,
                           attention.kv_len, attention.causal));
  }
  const ir::NodeId context =
      graph.add(prefix + ".attention", attention, {query, key, value}, graph.shape(query));
  return linear(graph, prefix + ".o_proj", context, config.hidden, config.bias);
}

ir::NodeId feed_forward(ModelGraph& graph, const TransformerConfig& config,
                        const std::string& prefix, ir::NodeId x) {
  ir::NodeId hidden;
  if (config.gated_ffn) {
    const ir::NodeId gate = linear(graph, prefix + ".ffn_gate", x, config.ffn, config.bias);
    const ir::NodeId activated = elementwise(graph, prefix + ".act", config.activation, {gate});
    const ir::NodeId up = linear(graph, prefix + ".ffn_up", x, config.ffn, config.bias);
    hidden = elementwise(graph, prefix + ".ffn_mul", "mul", {activated, up});
  } else {
    const ir::NodeId up = linear(graph, prefix + ".ffn_up", x, config.ffn, config.bias);
    hidden = elementwise(graph, prefix + ".act", config.activation, {up});
  }
  return linear(graph, prefix + ".ffn_down", hidden, config.hidden, config.bias);
}

using Sublayer = ir::NodeId (*)(ModelGraph&, const TransformerConfig&, const std::string&,
                                ir::NodeId);

// Pre-norm: x + f(norm(x)). Post-norm: norm(x + f(x)).
ir::NodeId residual(ModelGraph& graph, const TransformerConfig& config, const std::string& prefix,
                    const std::string& index, ir::NodeId x, Sublayer sublayer) {
  const std::string norm_name = prefix + ".norm" + index;
  const std::string add_name = prefix + ".add" + index;
  if (pre_norm(config)) {
    const ir::NodeId normed = norm(graph, norm_name, config.norm, x);
    return elementwise(graph, add_name, "add", {x, sublayer(graph, config, prefix, normed)});
  }
  const ir::NodeId sum =
      elementwise(graph, add_name, "add", {x, sublayer(graph, config, prefix, x)});
  return norm(graph, norm_name, config.norm, sum);
}

// The token embedding plus the learned position and token-type embeddings the config has (with
// BERT's embedding norm in post-norm stacks), or the hidden states as the graph input when the
// model has no vocab.
ir::NodeId embed(ModelGraph& graph, const TransformerConfig& config) {
  const Shape hidden_states = {1, config.tokens(), config.hidden};
  if (config.vocab == 0) return graph.input("hidden_states", hidden_states);
  const ir::NodeId ids =
      graph.input("input_ids", {config.batch, config.queries()}, ir::DType::kInt64);
  ir::EmbeddingAttrs lookup;
  lookup.rows = config.tokens();
  lookup.cols = config.hidden;
  lookup.vocab = config.vocab;
  // Table first, then indices: ONNX Gather's operand order, which lowering keeps.
  const ir::NodeId table = graph.weight("embedding.w", {config.vocab, config.hidden});
  ir::NodeId x = graph.add("embedding", lookup, {table, ids}, hidden_states);
  // Positions are the same for every sequence of the batch: one row per query position, added
  // to every sequence (broadcast), as the exporters' position Gather does.
  if (config.max_positions > 0) {
    ir::EmbeddingAttrs positions{config.queries(), config.hidden, config.max_positions};
    const ir::NodeId position_ids =
        graph.input("position_ids", {1, config.queries()}, ir::DType::kInt64);
    const ir::NodeId position_table =
        graph.weight("position_embedding.w", {config.max_positions, config.hidden});
    const ir::NodeId position = graph.add("position_embedding", positions,
                                          {position_table, position_ids},
                                          {1, config.queries(), config.hidden});
    x = elementwise(graph, "embedding_add_position", "add", {x, position});
  }
  if (config.token_types > 0) {
    ir::EmbeddingAttrs types{config.tokens(), config.hidden, config.token_types};
    const ir::NodeId type_ids =
        graph.input("token_type_ids", {config.batch, config.queries()}, ir::DType::kInt64);
    const ir::NodeId type_table =
        graph.weight("token_type_embedding.w", {config.token_types, config.hidden});
    const ir::NodeId type =
        graph.add("token_type_embedding", types, {type_table, type_ids}, hidden_states);
    x = elementwise(graph, "embedding_add_token_type", "add", {x, type});
  }
  return pre_norm(config) ? x : norm(graph, "embedding_norm", config.norm, x);
}

}  // namespace

ir::Graph build_transformer(const ModelConfig& model, const TransformerConfig& config) {
  ModelGraph graph(model);
  ir::NodeId x = embed(graph, config);
  for (int64_t layer = 0; layer < config.layers; ++layer) {
    const std::string prefix = "layer" + std::to_string(layer);
    x = residual(graph, config, prefix, "1", x, self_attention);
    x = residual(graph, config, prefix, "2", x, feed_forward);
  }
  if (pre_norm(config)) x = norm(graph, "final_norm", config.norm, x);
  if (config.lm_head) x = linear(graph, "lm_head", x, config.vocab, false);
  return std::move(graph).finish(x);
}

}  // namespace polyarch::frontend
