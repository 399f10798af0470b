// The transformer builder: op shapes per phase and variant, and its BERT-base against the
// imported and lowered bert_base.onnx.
#include "compiler/frontend/model_builder/transformer_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/op_table.h"
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

// The check: the builder's BERT-base and the exported one lower to the same matrix
// work. Compared exactly: every GEMM's m/n/k/batch (QK^T and PV of the builder's fused
// attention included), total MACs, GEMM FLOPs with the bias additions, the norms, the residual
// adds and the non-embedding parameters. What the export has in addition, and why:
//  - each MatMul's bias is a separate Add (6 per layer): the builder fuses it into the GEMM;
//  - GELU is Div, Erf, Add, Mul, Mul (erf form): the builder has one gelu;
//  - attention is unfused: 2 Mul scaling Q and K^T, Add (mask), Softmax, IsNaN, Where and 4
//    Transposes plus 4 Reshape views per layer, all inside the builder's one attention op;
//  - position (512) and token-type (2) embedding tables and the 2 Adds that sum the three
//    embeddings: the builder models the token embedding only.
TEST(TransformerBuilder, BertBaseMatchesTheLoweredOnnxExport) {
  const ir::Graph built =
      testing::built_model_file("workloads/models/bert_base.yaml", ir::DType::kFp32);
  const ir::Graph onnx = testing::compiled_onnx("bert_base.onnx");
  EXPECT_EQ(matrix_products(built), matrix_products(onnx));
  EXPECT_EQ(matrix_products(built).size(), 96u);  // 12 x (Q, K, V, O, 2 FFN, QK^T, PV)
  const lower::GraphTotals built_totals = lower::graph_totals(built);
  const lower::GraphTotals onnx_totals = lower::graph_totals(onnx);
  EXPECT_EQ(built_totals.macs, onnx_totals.macs);
  EXPECT_EQ(built_totals.macs, 11173625856);
  EXPECT_EQ(built_totals.parameters, onnx_totals.parameters - (512 + 2) * 768);

  // FLOPs of the GEMMs with weights (attention's are compared above), bias additions included
  // on both sides.
  const auto gemm_and_bias_flops = [](const ir::Graph& graph) {
    int64_t flops = 0;
    for (ir::NodeId id : graph.topological_ops()) {
      const ir::Op& op = graph.op(id);
      const auto* add = std::get_if<ir::ElementwiseAttrs>(&op.attrs);
      bool bias_add = false;
      for (ir::NodeId input : graph.inputs_of(id)) {
        const ir::Tensor& operand = graph.tensor(input);
        bias_add =
            bias_add || (operand.role == ir::TensorRole::kWeight && operand.shape.size() == 1);
      }
      bias_add = bias_add && add != nullptr && add->fn == "add";
      const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs);
      if ((gemm != nullptr && gemm->b_shared) || bias_add) flops += ir::flop_count(op);
    }
    return flops;
  };
  EXPECT_EQ(gemm_and_bias_flops(built), gemm_and_bias_flops(onnx));

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

  // 24 residual adds each; the export's other two full-size adds sum the three embeddings.
  std::multiset<std::pair<int64_t, int64_t>> residuals = elementwise_ops(built, "add");
  EXPECT_EQ(residuals.count({128 * 768, 2}), 24u);
  EXPECT_EQ(elementwise_ops(onnx, "add").count({128 * 768, 2}), 24u + 2u);
  // One GELU per layer: the builder's gelu, the export's erf form.
  EXPECT_EQ(elementwise_ops(built, "gelu"), elementwise_ops(onnx, "erf"));
  EXPECT_EQ(count_of(onnx, ir::OpKind::kEmbedding), 3);
  EXPECT_EQ(count_of(built, ir::OpKind::kEmbedding), 1);
}

}  // namespace
}  // namespace polyarch::frontend
