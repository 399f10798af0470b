// Attention recognition before/after: BERT's export (head split/merge absorbed, additive mask,
// scale split between Q and K^T), GPT-2's causal Where with a Div scale, GQA's repeat_kv, and
// a scale that is not 1/sqrt(d).
#include "compiler/passes/fuse_attention.h"

#include <gtest/gtest.h>

#include <cmath>

#include "compiler/frontend/workload_loader.h"
#include "compiler/ir/op_text.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/passes/fusion_test_support.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;

// b=1, s=4, h=2 heads of d=8 over [1, 4, 16] projections, as the BERT export writes it.
OnnxGraphBuilder bert_attention(double half_scale) {
  OnnxGraphBuilder b;
  b.input("q_in", {1, 4, 16}).input("k_in", {1, 4, 16}).input("v_in", {1, 4, 16});
  b.input("mask", {1, 1, 1, 4});
  b.ints("split_shape", {1, 4, 2, 8}).ints("merged_shape", {1, 4, 16});
  testing::scalar(b, "c", half_scale);
  b.node("Reshape", {"q_in", "split_shape"}, {"q4"});
  b.node("Transpose", {"q4"}, {"q"}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  b.node("Reshape", {"k_in", "split_shape"}, {"k4"});
  b.node("Transpose", {"k4"}, {"kt"}, {{"perm", std::vector<int64_t>{0, 2, 3, 1}}});
  b.node("Reshape", {"v_in", "split_shape"}, {"v4"});
  b.node("Transpose", {"v4"}, {"v"}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  b.node("Mul", {"q", "c"}, {"q_scaled"});
  b.node("Mul", {"kt", "c"}, {"kt_scaled"});
  b.node("MatMul", {"q_scaled", "kt_scaled"}, {"scores"});
  b.node("Add", {"scores", "mask"}, {"masked"});
  b.node("Softmax", {"masked"}, {"p"}, {{"axis", int64_t{-1}}});
  b.node("MatMul", {"p", "v"}, {"context"});
  b.node("Transpose", {"context"}, {"context_t"}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  b.node("Reshape", {"context_t", "merged_shape"}, {"y"}, {}, "merge");
  b.output("y");
  return b;
}

TEST(FuseAttention, BertExportBecomesOneAttentionReadingTheProjectionsAndTheMask) {
  const ir::Graph before = testing::lowered(bert_attention(std::sqrt(1.0 / std::sqrt(8.0))).graph);
  ir::Graph after = before;
  const PassStatistics statistics = FuseAttentionPass().run(after);
  EXPECT_EQ(ir::print_graph(after),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %q_in[1,4,16]:fp32\n"
            "input %k_in[1,4,16]:fp32\n"
            "input %v_in[1,4,16]:fp32\n"
            "input %mask[1,1,1,4]:fp32\n"
            "%merge = attention(%q_in[1,4,16], %k_in[1,4,16], %v_in[1,4,16], %mask[1,1,1,4]) b=1 "
            "h=2 kv_heads=2 s=4 kv_len=4 d=8 -> %y[1,4,16]:fp32 fp32 from onnx:Attention "
            "{layout=\"sequence\" scale=0.353553368012399}\n"
            "output %y\n");
  EXPECT_EQ(statistics.get("fused"), 1);
  EXPECT_EQ(statistics.get("masked"), 1);
  EXPECT_EQ(statistics.get("ops erased"), 13);
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

TEST(FuseAttention, AScaleOtherThanOneOverRootDStaysUnfused) {
  ir::Graph graph = testing::lowered(bert_attention(0.5).graph);
  EXPECT_EQ(FuseAttentionPass().run(graph).get("fused"), 0);
  EXPECT_EQ(graph.op(graph.topological_ops().back()).kind(), ir::OpKind::kCopy);
}

// Which keys j query i sees (s = kv = 4) in a bool mask constant.
using MaskPattern = bool (*)(int64_t i, int64_t j);
bool lower_triangle(int64_t i, int64_t j) { return j <= i; }
bool upper_triangle(int64_t i, int64_t j) { return j >= i; }

void causal_mask(OnnxGraphBuilder& b, MaskPattern pattern) {
  b.input("causal", {1, 1, 4, 4}, ir::DType::kBool);
  ir::Tensor& tensor = b.tensor("causal");
  tensor.role = ir::TensorRole::kWeight;
  Values values = empty_values(ir::DType::kBool, tensor.shape);
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 4; ++j) values.ints.push_back(pattern(i, j));
  }
  store_values(values, tensor);
}

// GPT-2's form on [b, h, s, d] tensors: Div by sqrt(d), then Where(causal, scores, min).
// With `kv_heads` 1, K and V go through GQA's repeat_kv first.
OnnxGraphBuilder causal_attention(MaskPattern pattern, int64_t kv_heads = 2) {
  OnnxGraphBuilder b;
  b.input("q", {1, 2, 4, 8}).input("k", {1, kv_heads, 4, 8}).input("v", {1, kv_heads, 4, 8});
  causal_mask(b, pattern);
  testing::scalar(b, "root_d", std::sqrt(8.0));
  testing::scalar(b, "fill", -3.4028234663852886e38);
  std::string keys = "k", values = "v";
  if (kv_heads == 1) {
    b.ints("axis", {2}).ints("expanded", {1, 1, 2, 4, 8}).ints("heads", {1, 2, 4, 8});
    for (const std::string name : {"k", "v"}) {
      b.node("Unsqueeze", {name, "axis"}, {name + "5"});
      b.node("Expand", {name + "5", "expanded"}, {name + "x"});
      b.node("Reshape", {name + "x", "heads"}, {name + "r"});
    }
    keys = "kr", values = "vr";
  }
  b.node("Transpose", {keys}, {"kt"}, {{"perm", std::vector<int64_t>{0, 1, 3, 2}}});
  b.node("MatMul", {"q", "kt"}, {"scores"});
  b.node("Div", {"scores", "root_d"}, {"scaled"});
  b.node("Where", {"causal", "scaled", "fill"}, {"masked"});
  b.node("Softmax", {"masked"}, {"p"}, {{"axis", int64_t{3}}});
  b.node("MatMul", {"p", values}, {"y"}, {}, "pv");
  b.output("y");
  return b;
}

TEST(FuseAttention, CausalWhereWithADivScaleOnHeadTensors) {
  const ir::Graph before = testing::lowered(causal_attention(lower_triangle).graph);
  ir::Graph after = before;
  const PassStatistics statistics = FuseAttentionPass().run(after);
  EXPECT_EQ(ir::print_graph(after),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %q[1,2,4,8]:fp32\n"
            "input %k[1,2,4,8]:fp32\n"
            "input %v[1,2,4,8]:fp32\n"
            "%pv = attention(%q[1,2,4,8], %k[1,2,4,8], %v[1,2,4,8]) b=1 h=2 kv_heads=2 s=4 "
            "kv_len=4 d=8 causal -> %y[1,2,4,8]:fp32 fp32 from onnx:Attention {layout=\"heads\" "
            "scale=0.3535533966440824}\n"
            "output %y\n");
  EXPECT_EQ(statistics.get("causal"), 1);
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

// Sliding-window bands as exporters write them (Mistral's causal window, Longformer's centred
// one): fused with the window, and the fused op computes what the Where did.
TEST(FuseAttention, SlidingWindowWhereBecomesAWindow) {
  struct Case {
    MaskPattern pattern;
    bool causal;
    int64_t window;
  };
  for (const Case& c :
       {Case{[](int64_t i, int64_t j) { return j <= i && j > i - 2; }, true, 2},
        Case{[](int64_t i, int64_t j) { return j >= i - 1 && j <= i + 1; }, false, 3}}) {
    const ir::Graph before = testing::lowered(causal_attention(c.pattern).graph);
    ir::Graph after = before;
    const PassStatistics statistics = FuseAttentionPass().run(after);
    ASSERT_EQ(statistics.get("fused"), 1);
    EXPECT_EQ(statistics.get("windowed"), 1);
    const auto& attrs = std::get<ir::AttentionAttrs>(after.op(after.topological_ops().front()).attrs);
    EXPECT_EQ(attrs.causal, c.causal);
    EXPECT_EQ(attrs.window, c.window);
    EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
  }
}

TEST(FuseAttention, AMaskThatIsNotCausalStaysUnfused) {
  ir::Graph graph = testing::lowered(causal_attention(upper_triangle).graph);
  EXPECT_EQ(FuseAttentionPass().run(graph).get("fused"), 0);
}

// A Where over 32 queries and keys whose mask is constant on 16 x 16 blocks: query block 0
// sees key block 0, query block 1 both (neither causal nor a window); with `causal`, each query
// block sees only its own key block and no key after the query. Fused as an explicit block
// layout at the coarsest block that spells it, and the fused op computes what the Where did.
OnnxGraphBuilder block_masked_attention(bool causal) {
  OnnxGraphBuilder b;
  b.input("q", {1, 2, 32, 8}).input("k", {1, 2, 32, 8}).input("v", {1, 2, 32, 8});
  b.input("blocks", {1, 1, 32, 32}, ir::DType::kBool);
  ir::Tensor& tensor = b.tensor("blocks");
  tensor.role = ir::TensorRole::kWeight;
  Values values = empty_values(ir::DType::kBool, tensor.shape);
  for (int64_t i = 0; i < 32; ++i) {
    for (int64_t j = 0; j < 32; ++j) {
      values.ints.push_back(causal ? j / 16 == i / 16 && j <= i : j / 16 <= i / 16);
    }
  }
  store_values(values, tensor);
  testing::scalar(b, "root_d", std::sqrt(8.0));
  testing::scalar(b, "fill", -3.4028234663852886e38);
  b.node("Transpose", {"k"}, {"kt"}, {{"perm", std::vector<int64_t>{0, 1, 3, 2}}});
  b.node("MatMul", {"q", "kt"}, {"scores"});
  b.node("Div", {"scores", "root_d"}, {"scaled"});
  b.node("Where", {"blocks", "scaled", "fill"}, {"masked"});
  b.node("Softmax", {"masked"}, {"p"}, {{"axis", int64_t{3}}});
  b.node("MatMul", {"p", "v"}, {"y"}, {}, "pv");
  b.output("y");
  return b;
}

TEST(FuseAttention, ABlockStructuredWhereBecomesABlockMask) {
  for (const bool causal : {false, true}) {
    const ir::Graph before = testing::lowered(block_masked_attention(causal).graph);
    ir::Graph after = before;
    const PassStatistics statistics = FuseAttentionPass().run(after);
    ASSERT_EQ(statistics.get("fused"), 1) << causal;
    EXPECT_EQ(statistics.get("block-sparse"), 1);
    const ir::Op& fused = after.op(after.topological_ops().front());
    const auto& attrs = std::get<ir::AttentionAttrs>(fused.attrs);
    EXPECT_EQ(attrs.causal, causal);
    ASSERT_TRUE(attrs.block_sparse);
    // Blocks of 16: row 0 sees block 0 (10 -> 8), row 1 both (11 -> c) or its own (01 -> 4).
    const std::string mask = causal ? " block=16 block_mask=8.4" : " block=16 block_mask=8.c";
    EXPECT_NE(ir::op_attributes_text(fused.attrs).find(mask), std::string::npos)
        << ir::op_attributes_text(fused.attrs);
    EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
  }
}

TEST(FuseAttention, RepeatedKeysAndValuesAreReadOnceWithFewerKvHeads) {
  const ir::Graph before = testing::lowered(causal_attention(lower_triangle, 1).graph);
  ir::Graph after = before;
  const PassStatistics statistics = FuseAttentionPass().run(after);
  EXPECT_EQ(statistics.get("gqa"), 1);
  EXPECT_EQ(testing::op_kinds(after), std::vector<std::string>{"attention"});
  const auto& attrs = std::get<ir::AttentionAttrs>(after.op(after.topological_ops()[0]).attrs);
  EXPECT_EQ(attrs.h, 2);
  EXPECT_EQ(attrs.kv_heads, 1);
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

// The structure-only exports: BERT-base (the legacy exporter's split/merge chains) and GPT-2
// (the dynamo exporter's: a Split of the fused QKV projection, K^T through a 3-D transpose).
// GPT-2's mask is Where(And(new_ones, le, eq), 0, -inf) over initializers whose values are in
// the absent weights file, so nothing proves it causal: it stays an additive mask operand.
TEST(FuseAttention, BertBaseAndGpt2ExportsFuseTwelveAttentions) {
  for (const char* model : {"bert_base", "gpt2"}) {
    ir::Graph graph = frontend::load_workload(std::string(POLYARCH_SOURCE_DIR) +
                                              "/tests/data/onnx/" + model + ".onnx");
    PassStatistics statistics;
    for (const auto& record : lower::standard_pipeline().run(graph)) {
      if (record.pass == "fuse-attention") statistics = record.statistics;
    }
    EXPECT_EQ(statistics.get("fused"), 12) << model;
    EXPECT_EQ(statistics.get("masked"), 12) << model;
    int64_t attentions = 0;
    for (ir::NodeId id : graph.topological_ops()) {
      const auto* attention = std::get_if<ir::AttentionAttrs>(&graph.op(id).attrs);
      if (attention == nullptr) continue;
      ++attentions;
      EXPECT_EQ(attention->h, 12);
      EXPECT_EQ(attention->kv_heads, 12);
      EXPECT_EQ(attention->s, 128);
      EXPECT_EQ(attention->d, 64);
      EXPECT_EQ(graph.inputs_of(id).size(), 4u) << "Q, K, V and the mask";
    }
    EXPECT_EQ(attentions, 12) << model;
  }
}

}  // namespace
}  // namespace polyarch::passes
