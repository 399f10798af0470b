// The transformer builder: op shapes per phase and variant, and its BERT-base against the
// imported and lowered bert_base.onnx.
#include "compiler/frontend/model_builder/transformer_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/op_table.h"
#include "compiler/passes/fuse_bias_activation.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/model_builder/model_test_support.h"

namespace polyarch::frontend {
namespace {

using testing::attrs_of;
using testing::built_model;
using testing::matrix_products;

int64_t count_of(const ir::Graph& graph, ir::OpKind kind) {
  int64_t count = 0;
  for (ir::NodeId id : graph.topological_ops()) count += graph.op(id).kind() == kind ? 1 : 0;
  return count;
}

std::vector<std::string> op_names(const ir::Graph& graph) {
  std::vector<std::string> names;
  for (ir::NodeId id : graph.topological_ops()) names.push_back(graph.op(id).name);
  return names;
}

// Elementwise ops of one function, as {elements, inputs} pairs.
std::multiset<std::pair<int64_t, int64_t>> elementwise_ops(const ir::Graph& graph,
                                                           const std::string& fn) {
  std::multiset<std::pair<int64_t, int64_t>> ops;
  for (ir::NodeId id : graph.topological_ops()) {
    const auto* attrs = std::get_if<ir::ElementwiseAttrs>(&graph.op(id).attrs);
    if (attrs != nullptr && attrs->fn == fn) ops.insert({attrs->elements, attrs->inputs});
  }
  return ops;
}

const char* const kSmallDecoder =
    "model: {family: transformer, layers: 1, hidden: 256, heads: 8, ffn: 512, seq: 64, "
    "batch: 2";

TEST(TransformerBuilder, PreNormLayerRunsNormAttentionResidualNormFfnResidual) {
  const ir::Graph graph = built_model(std::string(kSmallDecoder) + "}");
  EXPECT_EQ(op_names(graph),
            (std::vector<std::string>{"layer0.norm1", "layer0.q_proj", "layer0.k_proj",
                                      "layer0.v_proj", "layer0.attention", "layer0.o_proj",
                                      "layer0.add1", "layer0.norm2", "layer0.ffn_up", "layer0.act",
                                      "layer0.ffn_down", "layer0.add2", "final_norm"}));
  const auto& q = attrs_of<ir::GemmAttrs>(graph, "layer0.q_proj");
  EXPECT_EQ(q.m, 2 * 64);  // batch * seq
  EXPECT_EQ(q.n, 256);
  EXPECT_EQ(q.k, 256);
  EXPECT_TRUE(q.bias);  // LayerNorm models have biases by default
  const auto& attention = attrs_of<ir::AttentionAttrs>(graph, "layer0.attention");
  EXPECT_EQ(attention.b, 2);
  EXPECT_EQ(attention.h, 8);
  EXPECT_EQ(attention.s, 64);
  EXPECT_EQ(attention.kv_len, 64);
  EXPECT_EQ(attention.d, 32);
  EXPECT_TRUE(attention.causal);  // a decoder by default
  EXPECT_EQ(attrs_of<ir::ElementwiseAttrs>(graph, "layer0.act").fn, "gelu");
  EXPECT_EQ(attrs_of<ir::ElementwiseAttrs>(graph, "layer0.add1").inputs, 2);
}

TEST(TransformerBuilder, GroupedQueryAttentionShrinksTheKeyAndValueProjections) {
  const std::string base =
      "model: {family: transformer, layers: 1, hidden: 4096, heads: 32, "
      "ffn: 14336, seq: 16, norm: rmsnorm";
  const ir::Graph mha = built_model(base + "}");
  const ir::Graph gqa = built_model(base + ", kv_heads: 8}");
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(mha, "layer0.k_proj").n, 4096);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(gqa, "layer0.k_proj").n, 1024);  // 8 heads of 128
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(gqa, "layer0.v_proj").n, 1024);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(gqa, "layer0.q_proj").n, 4096);
  EXPECT_EQ(attrs_of<ir::AttentionAttrs>(gqa, "layer0.attention").kv_heads, 8);
  // Attention's MACs do not depend on how many heads share K and V; the projections' do.
  EXPECT_EQ(ir::mac_count(testing::op_named(mha, "layer0.attention")),
            ir::mac_count(testing::op_named(gqa, "layer0.attention")));
  const int64_t saved = 2 * int64_t{16} * 4096 * (4096 - 1024);
  EXPECT_EQ(lower::graph_totals(mha).macs - lower::graph_totals(gqa).macs, saved);
  EXPECT_FALSE(attrs_of<ir::GemmAttrs>(gqa, "layer0.q_proj").bias);  // RMSNorm: no biases
}

TEST(TransformerBuilder, DecodeStepHasOneTokenPerSequenceAgainstTheCachePlusItself) {
  const ir::Graph graph = built_model(
      "model: {family: transformer, layers: 2, hidden: 256, heads: 8, kv_heads: 2, ffn: 512, "
      "phase: decode, kv_len: 100, batch: 4, vocab: 1000}");
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(graph, "layer1.q_proj").m, 4);  // M = batch
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(graph, "layer1.ffn_down").m, 4);
  const auto& attention = attrs_of<ir::AttentionAttrs>(graph, "layer1.attention");
  EXPECT_EQ(attention.s, 1);
  EXPECT_EQ(attention.kv_len, 101);
  EXPECT_EQ(attention.kv_heads, 2);
  // Each layer appends the step's K and V rows (4 sequences x 2 heads x 32) to its caches.
  const auto& append = attrs_of<ir::ElementwiseAttrs>(graph, "layer0.k_cache");
  EXPECT_EQ(append.fn, "copy");
  EXPECT_EQ(append.elements, 4 * 64);
  EXPECT_EQ(count_of(graph, ir::OpKind::kElementwise), 2 * (2 + 2 + 1));
  // A decoder with a vocab embeds the new tokens and projects them to logits.
  EXPECT_EQ(attrs_of<ir::EmbeddingAttrs>(graph, "embedding").rows, 4);
  const auto& lm_head = attrs_of<ir::GemmAttrs>(graph, "lm_head");
  EXPECT_EQ(lm_head.m, 4);
  EXPECT_EQ(lm_head.n, 1000);
}

// `precision:` is --precision's scheme applied to the built model: w4a16 with an int8 KV cache
// computes in fp16 (softmax and norm in fp32), stores every projection's weights in int4 groups
// of 128, and each attention's cache in int8.
TEST(TransformerBuilder, APrecisionSchemeTypesOpsWeightsAndTheKvCache) {
  const ir::Graph graph = built_model(
      "model: {family: transformer, layers: 1, hidden: 256, heads: 8, kv_heads: 2, ffn: 512, "
      "phase: decode, kv_len: 100, vocab: 1000, precision: 'w4a16,kv_cache=int8'}");
  int64_t stored_int4 = 0;
  for (ir::NodeId id : graph.topological_ops()) {
    const ir::Op& op = graph.op(id);
    if (op.kind() == ir::OpKind::kNorm) EXPECT_EQ(op.dtype, ir::DType::kFp32) << op.name;
    if (op.kind() != ir::OpKind::kGemm) continue;
    EXPECT_EQ(op.dtype, ir::DType::kFp16) << op.name;
    ASSERT_TRUE(op.weight_format.has_value()) << op.name;
    EXPECT_EQ(op.weight_format->dtype, ir::DType::kInt4);
    EXPECT_EQ(op.weight_format->group, 128);
    ++stored_int4;
  }
  EXPECT_EQ(stored_int4, 4 + 2 + 1);  // q, k, v, o; ffn up and down; lm_head
  EXPECT_EQ(attrs_of<ir::AttentionAttrs>(graph, "layer0.attention").kv_dtype, ir::DType::kInt8);
  // Tensors are built in the scheme's type, not a placeholder.
  EXPECT_NE(ir::print_graph(graph).find("%layer0.q_proj.w[256,256]:fp16"), std::string::npos);
}

TEST(TransformerBuilder, ABadPrecisionIsRefusedAtItsKey) {
  const auto error = polyarch::testing::capture_error([] {
    built_model("model: {family: transformer, layers: 1, hidden: 256, heads: 8, precision: fp6}");
  });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), ::testing::HasSubstr("precision fp6: 'fp6' is not a precision"));
  EXPECT_EQ(error->where().line, 1);
}

// Mistral-style sliding window: a decode step's token sees the 16 newest of its 101 keys, so
// each layer's attention does 16/101 of the full step's MACs.
TEST(TransformerBuilder, AWindowReachesEveryLayersAttention) {
  const ir::Graph graph = built_model(
      "model: {family: transformer, layers: 2, hidden: 256, heads: 8, kv_heads: 2, ffn: 512, "
      "phase: decode, kv_len: 100, window: 16}");
  const auto& attention = attrs_of<ir::AttentionAttrs>(graph, "layer1.attention");
  EXPECT_EQ(attention.window, 16);
  EXPECT_TRUE(attention.causal);
  const ir::Op op{"attention", attention, ir::DType::kFp16, {}};
  EXPECT_EQ(ir::mac_count(op), int64_t{2} * 8 * 16 * 32);  // h x keys seen x head dim, twice
}

// BigBird in every layer of an encoder over 96 tokens in blocks of 32 (3 x 3 blocks): with
// local 1 and global 1, row 0 sees all three blocks, rows 1 and 2 block 0 and their own: 7 cells
// of 32 x 32 scores per head (an encoder is not causal).
TEST(TransformerBuilder, ABlockSparseKeyReachesEveryLayersAttention) {
  const ir::Graph graph = built_model(
      "model: {family: transformer, kind: encoder, layers: 2, hidden: 256, heads: 8, ffn: 512, "
      "seq: 96, block_sparse: {block: 32, local: 1, global: 1}}");
  for (const char* name : {"layer0.attention", "layer1.attention"}) {
    const auto& attention = attrs_of<ir::AttentionAttrs>(graph, name);
    ASSERT_TRUE(attention.block_sparse) << name;
    const ir::Op op{"attention", attention, ir::DType::kFp16, {}};
    EXPECT_EQ(ir::mac_count(op),
              int64_t{2} * 8 * 7 * 32 * 32 * 32);  // h x scores x head dim, twice
  }
  const auto error = polyarch::testing::capture_error([] {
    built_model(
        "model: {family: transformer, layers: 1, hidden: 256, heads: 8, seq: 96, "
        "window: 16, block_sparse: {block: 32}}");
  });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), ::testing::HasSubstr("block-sparse pattern and a sliding window"));
}

TEST(TransformerBuilder, SwigluAddsAGateGemmASiluAndAProduct) {
  const ir::Graph plain = built_model(std::string(kSmallDecoder) + "}");
  const ir::Graph gated = built_model(std::string(kSmallDecoder) + ", gated_ffn: true}");
  EXPECT_EQ(count_of(plain, ir::OpKind::kGemm), 6);
  EXPECT_EQ(count_of(gated, ir::OpKind::kGemm), 7);
  const auto& gate = attrs_of<ir::GemmAttrs>(gated, "layer0.ffn_gate");
  const auto& up = attrs_of<ir::GemmAttrs>(gated, "layer0.ffn_up");
  EXPECT_EQ(gate.n, 512);
  EXPECT_EQ(up.n, 512);
  EXPECT_EQ(gate.k, 256);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(gated, "layer0.ffn_down").k, 512);
  EXPECT_EQ(attrs_of<ir::ElementwiseAttrs>(gated, "layer0.act").fn, "silu");
  EXPECT_EQ(attrs_of<ir::ElementwiseAttrs>(gated, "layer0.ffn_mul").inputs, 2);
}

TEST(TransformerBuilder, PostNormEncoderNormalisesAfterEachResidualAndAfterTheEmbedding) {
  const ir::Graph graph = built_model(
      "model: {family: transformer, kind: encoder, layers: 1, hidden: 64, heads: 4, seq: 8, "
      "vocab: 100}");
  EXPECT_EQ(op_names(graph),
            (std::vector<std::string>{
                "embedding", "embedding_norm", "layer0.q_proj", "layer0.k_proj", "layer0.v_proj",
                "layer0.attention", "layer0.o_proj", "layer0.add1", "layer0.norm1", "layer0.ffn_up",
                "layer0.act", "layer0.ffn_down", "layer0.add2", "layer0.norm2"}));
  EXPECT_FALSE(attrs_of<ir::AttentionAttrs>(graph, "layer0.attention").causal);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(graph, "layer0.ffn_up").n, 256);  // ffn = 4 * hidden
}

TEST(TransformerBuilder, OpsConnectThroughTensorsAndTheModelIsStructureOnly) {
  const ir::Graph graph = built_model(std::string(kSmallDecoder) + "}");
  const std::vector<ir::NodeId> ops = graph.topological_ops();
  // The attention reads exactly the three projections' results.
  const ir::NodeId attention = ops[4];
  ASSERT_EQ(graph.inputs_of(attention).size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(graph.inputs_of(attention)[i], graph.outputs_of(ops[1 + i]).front());
  }
  EXPECT_EQ(graph.tensor(graph.outputs_of(ops.back()).front()).role, ir::TensorRole::kOutput);
  EXPECT_FALSE(graph.functional_available());
}

// The check: the builder's BERT-base and the exported one lower to the same canonical
// ops. The export goes through the standard pipeline, whose fusion passes turn its primitives
// into the builder's ops: per layer one attention (QK^T, scale, mask, softmax and PV, with the
// head-splitting reshapes and transposes), one GELU (from Div, Erf, Add, Mul, Mul) and the
// MatMul bias Adds folded into the GEMMs. The builder's graph gets the same epilogue fusion
// (its FFN GELU becomes the up-projection's activation, as the export's does). Compared
// exactly: every GEMM (m/n/k/batch, bias, activation) and attention (b/h/kv_heads/s/kv_len/d/
// causal) with its FLOPs, the norms, the residual adds, the three embedding lookups (token,
// position, token type) and the 2 adds summing them, MACs and parameters.
// What still differs, and why: the export's attention reads an additive mask (the
// attention_mask input's (1 - mask) * -10000, computed by 2 elementwise ops and a Cast/Unsqueeze
// view chain): the builder's has none (a mask adds b*s elements, which attention's costs leave
// out).
TEST(TransformerBuilder, BertBaseMatchesTheLoweredOnnxExport) {
  ir::Graph built = testing::built_model_file("workloads/models/bert_base.yaml", ir::DType::kFp32);
  passes::FuseBiasActivationPass().run(built);
  const ir::Graph onnx = testing::compiled_onnx("bert_base.onnx");
  EXPECT_EQ(matrix_products(built), matrix_products(onnx));
  EXPECT_EQ(matrix_products(built).size(), 96u);  // 12 x (Q, K, V, O, 2 FFN, QK^T, PV)
  const lower::GraphTotals built_totals = lower::graph_totals(built);
  const lower::GraphTotals onnx_totals = lower::graph_totals(onnx);
  EXPECT_EQ(built_totals.macs, onnx_totals.macs);
  EXPECT_EQ(built_totals.macs, 11173625856);
  EXPECT_EQ(built_totals.parameters, onnx_totals.parameters);

  // The GEMMs and attentions as ops: same attributes (bias, fused activation, causal flag) and
  // so the same FLOPs, biases and GELUs included.
  const auto compute_ops = [](const ir::Graph& graph, ir::OpKind kind) {
    std::multiset<std::string> found;
    int64_t flops = 0;
    for (ir::NodeId id : graph.topological_ops()) {
      if (graph.op(id).kind() != kind) continue;
      found.insert(testing::op_signature(graph.op(id)));
      flops += ir::flop_count(graph.op(id));
    }
    return std::make_pair(found, flops);
  };
  EXPECT_EQ(compute_ops(built, ir::OpKind::kGemm), compute_ops(onnx, ir::OpKind::kGemm));
  EXPECT_EQ(compute_ops(built, ir::OpKind::kAttention), compute_ops(onnx, ir::OpKind::kAttention));
  EXPECT_EQ(count_of(onnx, ir::OpKind::kAttention), 12);
  EXPECT_EQ(count_of(onnx, ir::OpKind::kSoftmax), 0);
  // One GELU per layer, the up-projection's activation on both sides; no primitive left.
  const auto gelu_gemms = [](const ir::Graph& graph) {
    int64_t count = 0;
    for (ir::NodeId id : graph.topological_ops()) {
      const auto* gemm = std::get_if<ir::GemmAttrs>(&graph.op(id).attrs);
      count += gemm != nullptr && gemm->activation && gemm->activation->fn == "gelu" ? 1 : 0;
    }
    return count;
  };
  EXPECT_EQ(gelu_gemms(built), 12);
  EXPECT_EQ(gelu_gemms(onnx), 12);
  EXPECT_TRUE(elementwise_ops(onnx, "erf").empty());

  const auto norms = [](const ir::Graph& graph) {
    std::multiset<std::string> found;
    for (ir::NodeId id : graph.topological_ops()) {
      if (graph.op(id).kind() == ir::OpKind::kNorm)
        found.insert(testing::op_signature(graph.op(id)));
    }
    return found;
  };
  EXPECT_EQ(norms(built), norms(onnx));
  EXPECT_EQ(norms(built).size(), 25u);  // embedding norm + 2 per layer, as BERT's post-norm

  // 24 residual adds and the 2 that sum the three embeddings.
  EXPECT_EQ(elementwise_ops(built, "add").count({128 * 768, 2}), 24u + 2u);
  EXPECT_EQ(elementwise_ops(onnx, "add").count({128 * 768, 2}), 24u + 2u);
  const auto embeddings = [](const ir::Graph& graph) {
    std::multiset<std::string> found;
    for (ir::NodeId id : graph.topological_ops()) {
      if (graph.op(id).kind() == ir::OpKind::kEmbedding)
        found.insert(testing::op_signature(graph.op(id)));
    }
    return found;
  };
  EXPECT_EQ(embeddings(built), embeddings(onnx));
  EXPECT_EQ(embeddings(built).size(), 3u);
}

}  // namespace
}  // namespace polyarch::frontend
