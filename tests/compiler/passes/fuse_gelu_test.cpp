// GELU recognition before/after: both forms, the factor orders, and what must stay unfused.
#include "compiler/passes/fuse_gelu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "tests/compiler/passes/fusion_test_support.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;

// x * 0.5 * (1 + erf(x / sqrt 2)) as torch exports it: Div, Erf, Add, Mul(x), Mul(0.5).
OnnxGraphBuilder erf_gelu(double root_two = std::numbers::sqrt2) {
  OnnxGraphBuilder b;
  b.input("x", {2, 8});
  testing::scalar(b, "root_two", root_two);
  testing::scalar(b, "one", 1.0);
  testing::scalar(b, "half", 0.5);
  b.node("Div", {"x", "root_two"}, {"scaled"});
  b.node("Erf", {"scaled"}, {"erf"});
  b.node("Add", {"erf", "one"}, {"one_plus"});
  b.node("Mul", {"x", "one_plus"}, {"product"});
  b.node("Mul", {"product", "half"}, {"y"}, {}, "gelu_out");
  b.output("y");
  return b;
}

TEST(FuseGelu, ErfFormBecomesOneGeluAndComputesTheSame) {
  const ir::Graph before = testing::lowered(erf_gelu().graph);
  ir::Graph after = before;
  const PassStatistics statistics = FuseGeluPass().run(after);
  EXPECT_EQ(ir::print_graph(after),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[2,8]:fp32\n"
            "%gelu_out = elementwise(%x[2,8]) fn=gelu elements=16 inputs=1 -> %y[2,8]:fp32 fp32 "
            "from onnx:Gelu\n"
            "output %y\n");
  EXPECT_EQ(statistics.get("fused"), 1);
  EXPECT_EQ(statistics.get("gelu erf"), 1);
  EXPECT_EQ(statistics.get("ops erased"), 4);
  EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
}

TEST(FuseGelu, TanhFormWithPowOrProductsAndAnyFactorOrder) {
  for (const bool pow : {true, false}) {
    OnnxGraphBuilder b;
    b.input("x", {4, 4});
    testing::scalar(b, "three", 3.0);
    testing::scalar(b, "c", 0.044715);
    testing::scalar(b, "k", std::sqrt(2.0 / std::numbers::pi));
    testing::scalar(b, "one", 1.0);
    testing::scalar(b, "half", 0.5);
    if (pow) {
      b.node("Pow", {"x", "three"}, {"cube"});
    } else {
      b.node("Mul", {"x", "x"}, {"square"}).node("Mul", {"x", "square"}, {"cube"});
    }
    b.node("Mul", {"c", "cube"}, {"term"});
    b.node("Add", {"x", "term"}, {"inner"});
    b.node("Mul", {"inner", "k"}, {"scaled"});
    b.node("Tanh", {"scaled"}, {"t"});
    b.node("Add", {"one", "t"}, {"one_plus"});
    b.node("Mul", {"x", "half"}, {"half_x"});  // (0.5 x) * (1 + tanh)
    b.node("Mul", {"half_x", "one_plus"}, {"y"});
    b.output("y");
    const ir::Graph before = testing::lowered(b.graph);
    ir::Graph after = before;
    const PassStatistics statistics = FuseGeluPass().run(after);
    EXPECT_EQ(statistics.get("gelu tanh"), 1) << (pow ? "pow" : "products");
    EXPECT_EQ(testing::op_kinds(after), std::vector<std::string>{"elementwise:gelu"});
    // The fused op states its form, so a cost model prices the tanh routine, not erf's.
    for (ir::NodeId id : after.topological_ops()) {
      EXPECT_TRUE(std::get<ir::ElementwiseAttrs>(after.op(id).attrs).approximate_tanh);
    }
    EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6);
  }
}

TEST(FuseGelu, OtherConstantsOrSharedIntermediatesStayUnfused) {
  ir::Graph wrong_constant = testing::lowered(erf_gelu(std::sqrt(3.0)).graph);
  EXPECT_EQ(FuseGeluPass().run(wrong_constant).get("fused"), 0);
  EXPECT_EQ(wrong_constant.op_count(), 5u);

  OnnxGraphBuilder shared = erf_gelu();
  shared.output("erf");  // someone else reads erf(x / sqrt 2)
  ir::Graph graph = testing::lowered(shared.graph);
  EXPECT_EQ(FuseGeluPass().run(graph).get("fused"), 0);
}

}  // namespace
}  // namespace polyarch::passes
