// LayerNorm and RMSNorm recognition before/after.
#include "compiler/passes/fuse_norm.h"

#include <gtest/gtest.h>

#include "compiler/passes/onnx_node.h"
#include "tests/compiler/passes/fusion_test_support.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;

// d = x - mean(x); y = d / sqrt(mean(d^2) + eps) * gamma + beta, over the last axis.
OnnxGraphBuilder layer_norm(double exponent = 2.0) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3, 8});
  b.ints("axes", {-1});
  testing::scalar(b, "two", exponent);
  testing::scalar(b, "eps", 1e-5);
  testing::floats(b, "gamma", {8});
  testing::floats(b, "beta", {8}, {}, 9);
  b.node("ReduceMean", {"x", "axes"}, {"mean"});
  b.node("Sub", {"x", "mean"}, {"centred"});
  b.node("Pow", {"centred", "two"}, {"square"});
  b.node("ReduceMean", {"square", "axes"}, {"variance"});
  b.node("Add", {"variance", "eps"}, {"shifted"});
  b.node("Sqrt", {"shifted"}, {"deviation"});
  b.node("Div", {"centred", "deviation"}, {"normalised"});
  b.node("Mul", {"normalised", "gamma"}, {"scaled"});
  b.node("Add", {"scaled", "beta"}, {"y"}, {}, "ln_out");
  b.output("y");
  return b;
}

TEST(FuseNorm, LayerNormPrimitivesBecomeOneNormWithTheirEpsilon) {
  const ir::Graph before = testing::lowered(layer_norm().graph);
  ir::Graph after = before;
  const PassStatistics statistics = FuseNormPass().run(after);
  EXPECT_EQ(
      ir::print_graph(after),
      "graph \"test\"\n"
      "opset \"\" 17\n"
      "input %x[2,3,8]:fp32\n"
      "weight %gamma[8]:fp32 "
      "{-0.84738344,0.5598376,-0.12318155,0.44693035,0.95597905,0.076991744,"
      "0.0022409298,-0.8558977}\n"
      "weight %beta[8]:fp32 "
      "{-0.9792517,0.003749191,-0.008453404,-0.73234093,-0.7157778,-0.56288266,"
      "-0.16298363,-0.50379765}\n"
      "%ln_out = norm(%x[2,3,8], %gamma[8], %beta[8]) layernorm rows=6 cols=8 -> %y[2,3,8]:fp32 "
      "fp32 from onnx:LayerNormalization {axis=-1 epsilon=9.999999747378752e-06}\n"
      "output %y\n");
  EXPECT_EQ(statistics.get("layernorm"), 1);
  EXPECT_EQ(statistics.get("ops erased"), 8);
  ASSERT_EQ(after.op_count(), 1u);
  const ir::Op& norm = after.op(after.topological_ops().front());
  EXPECT_FLOAT_EQ(float_attribute(*norm.lowered_from, "epsilon", 0), 1e-5f);  // fp32 constant
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

TEST(FuseNorm, RmsNormWithReciprocalAndProductSquare) {
  OnnxGraphBuilder b;
  b.input("x", {4, 16});
  b.ints("axes", {-1});
  testing::scalar(b, "eps", 1e-6);
  testing::floats(b, "gamma", {16});
  b.node("Mul", {"x", "x"}, {"square"});
  b.node("ReduceMean", {"square", "axes"}, {"mean"});
  b.node("Add", {"mean", "eps"}, {"shifted"});
  b.node("Sqrt", {"shifted"}, {"root"});
  b.node("Reciprocal", {"root"}, {"inverse"});
  b.node("Mul", {"x", "inverse"}, {"normalised"});
  b.node("Mul", {"gamma", "normalised"}, {"y"});
  b.output("y");
  const ir::Graph before = testing::lowered(b.graph);
  ir::Graph after = before;
  EXPECT_EQ(FuseNormPass().run(after).get("rmsnorm"), 1);
  EXPECT_EQ(testing::op_kinds(after), std::vector<std::string>{"norm"});
  const auto& attrs = std::get<ir::NormAttrs>(after.op(after.topological_ops().front()).attrs);
  EXPECT_EQ(attrs.kind, ir::NormKind::kRmsNorm);
  EXPECT_EQ(attrs.rows, 4);
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

TEST(FuseNorm, AnotherExponentIsNoVariance) {
  ir::Graph graph = testing::lowered(layer_norm(3.0).graph);
  EXPECT_EQ(FuseNormPass().run(graph).get("fused"), 0);
  EXPECT_EQ(graph.op_count(), 9u);
}

}  // namespace
}  // namespace polyarch::passes
