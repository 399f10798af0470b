// Gemm/Conv epilogue fusion before/after: MatMul + Add(bias) + activation, Conv + Clip (ReLU6),
// and the costs: the same FLOPs, fewer bytes.
#include "compiler/passes/fuse_bias_activation.h"

#include <gtest/gtest.h>

#include "compiler/lower/op_table.h"
#include "tests/compiler/passes/fusion_test_support.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;

OnnxGraphBuilder matmul_bias(const std::string& activation) {
  OnnxGraphBuilder b;
  b.input("x", {8, 16});
  testing::floats(b, "w", {16, 32});
  testing::floats(b, "bias", {32}, {}, 3);
  b.node("MatMul", {"x", "w"}, {"product"}, {}, "fc");
  b.node("Add", {"bias", "product"}, {"biased"});
  b.node(activation, {"biased"}, {"y"},
         activation == "LeakyRelu" ? std::map<std::string, ir::AttributeValue>{{"alpha", 0.2}}
                                   : std::map<std::string, ir::AttributeValue>{});
  b.output("y");
  return b;
}

TEST(FuseBiasActivation, MatMulAddReluBecomesOneGemmWithBiasAndActivation) {
  const ir::Graph before = testing::lowered(matmul_bias("Relu").graph);
  ir::Graph after = before;
  const PassStatistics statistics = FuseBiasActivationPass().run(after);
  EXPECT_EQ(
      ir::print_graph(after),
      "graph \"test\"\n"
      "opset \"\" 17\n"
      "unavailable \"the text IR leaves out the values of constants over 64 elements (structure "
      "only)\"\n"
      "input %x[8,16]:fp32\n"
      "weight %w[16,32]:fp32\n"
      "weight %bias[32]:fp32 "
      "{0.10159581,0.41629565,-0.4181905,0.021655202,0.7858939,0.7925862,-0.74882936,"
      "-0.58551425,-0.8970656,-0.11838032,-0.9402476,-0.08633356,0.2982881,"
      "-0.44302544,0.3525098,0.18172562,-0.95203626,0.11770817,-0.4814951,"
      "-0.16979761,-0.43294984,0.38627583,-0.119092554,-0.6862645,0.089298025,"
      "0.56062955,-0.38727292,-0.5560842,-0.22405748,0.8727673,0.95199084,"
      "0.34476736}\n"
      "%fc = gemm(%x[8,16], %w[16,32], %bias[32]) m=8 n=32 k=16 batch=1 bias act=relu -> "
      "%y[8,32]:fp32 fp32 from onnx:MatMul\n"
      "output %y\n");
  EXPECT_EQ(statistics.get("bias"), 1);
  EXPECT_EQ(statistics.get("activation relu"), 1);
  EXPECT_EQ(statistics.get("fused"), 2);
  const lower::GraphTotals unfused = lower::graph_totals(before);
  const lower::GraphTotals fused = lower::graph_totals(after);
  // The additions and the activations are still done; the product no longer goes to memory
  // and back twice (8 x 32 fp32 written and read by the Add, then by the Relu). The gemm now
  // reads the 32 biases, which the Add read as a broadcast operand it did not count.
  EXPECT_EQ(fused.flops, unfused.flops);
  EXPECT_EQ(fused.parameters, unfused.parameters);
  EXPECT_EQ(unfused.bytes - fused.bytes, 4 * 8 * 32 * 4 - 32 * 4);
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

TEST(FuseBiasActivation, ActivationsKeepTheirConstants) {
  const ir::Graph before = testing::lowered(matmul_bias("LeakyRelu").graph);
  ir::Graph after = before;
  FuseBiasActivationPass().run(after);
  const auto& gemm = std::get<ir::GemmAttrs>(after.op(after.topological_ops()[0]).attrs);
  ASSERT_TRUE(gemm.activation);
  EXPECT_EQ(gemm.activation->fn, "leakyrelu");
  EXPECT_DOUBLE_EQ(gemm.activation->params.at("alpha"), 0.2);
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

TEST(FuseBiasActivation, ConvWithRelu6Clip) {
  OnnxGraphBuilder b;
  b.input("x", {1, 3, 8, 8});
  testing::floats(b, "w", {4, 3, 3, 3});
  testing::floats(b, "b", {4});
  testing::scalar(b, "low", 0.0);
  testing::scalar(b, "high", 6.0);
  b.node("Conv", {"x", "w", "b"}, {"c"}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv");
  b.node("Clip", {"c", "low", "high"}, {"y"});
  b.output("y");
  const ir::Graph before = testing::lowered(b.graph);
  ir::Graph after = before;
  EXPECT_EQ(FuseBiasActivationPass().run(after).get("activation clip"), 1);
  EXPECT_EQ(ir::print_graph(after),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "unavailable \"the text IR leaves out the values of constants over 64 elements "
            "(structure only)\"\n"
            "input %x[1,3,8,8]:fp32\n"
            "weight %w[4,3,3,3]:fp32\n"
            "weight %b[4]:fp32 "
            "{-0.84738344,0.5598376,-0.12318155,0.44693035}\n"
            "%conv = conv2d(%x[1,3,8,8], %w[4,3,3,3], %b[4]) n=1 c=3 h=8 w=8 k=4 window=3x3 "
            "stride=1x1 pad=1x1 groups=1 bias act=clip(max=6.0,min=0.0) -> %y[1,4,8,8]:fp32 fp32 "
            "from onnx:Conv {pads=[1,1,1,1]}\n"
            "output %y\n");
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

TEST(FuseBiasActivation, AProductSomeoneElseReadsStaysSeparate) {
  OnnxGraphBuilder b = matmul_bias("Relu");
  b.output("product");
  ir::Graph graph = testing::lowered(b.graph);
  EXPECT_EQ(FuseBiasActivationPass().run(graph).get("fused"), 0);
  EXPECT_EQ(graph.op_count(), 3u);
}

}  // namespace
}  // namespace polyarch::passes
