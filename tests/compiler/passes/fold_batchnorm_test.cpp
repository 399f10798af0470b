// Conv+BatchNorm folding before/after, on a built graph and on tiny_cnn_unfolded against the
// folded export tiny_cnn.
#include "compiler/passes/fold_batchnorm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/op_table.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/passes/fusion_test_support.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;

OnnxGraphBuilder conv_batchnorm(bool conv_bias) {
  OnnxGraphBuilder b;
  b.input("x", {1, 2, 6, 6});
  testing::floats(b, "w", {3, 2, 3, 3});
  testing::floats(b, "cb", {3}, {}, 5);
  testing::floats(b, "gamma", {3}, {0.5, 1.5, -2.0});
  testing::floats(b, "beta", {3}, {0.1, 0.0, -0.3});
  testing::floats(b, "mean", {3}, {0.2, -0.4, 1.0});
  testing::floats(b, "var", {3}, {1.0, 0.25, 4.0});
  std::vector<std::string> conv_inputs = {"x", "w"};
  if (conv_bias) conv_inputs.push_back("cb");
  b.node("Conv", conv_inputs, {"c"}, {}, "conv");
  b.node("BatchNormalization", {"c", "gamma", "beta", "mean", "var"}, {"y"}, {{"epsilon", 1e-3}});
  b.output("y");
  return b;
}

TEST(FoldConvBatchNorm, RescalesWeightsAndBiasWithOrWithoutAConvBias) {
  for (const bool conv_bias : {true, false}) {
    const ir::Graph before = testing::lowered(conv_batchnorm(conv_bias).graph);
    ir::Graph after = before;
    const PassStatistics statistics = FoldConvBatchNormPass().run(after);
    EXPECT_EQ(statistics.get("folded"), 1);
    // One conv reading the folded weights and bias (whose values the interpreter check below
    // covers; they differ with and without the conv's own bias).
    EXPECT_EQ(after.op_count(), 1u);
    EXPECT_THAT(ir::print_graph(after),
                ::testing::HasSubstr(
                    "%conv = conv2d(%x[1,2,6,6], %w.bn_folded[3,2,3,3], %conv.bias_bn_folded[3]) "
                    "n=1 c=2 h=6 w=6 k=3 window=3x3 stride=1x1 pad=0x0 groups=1 bias -> "
                    "%y[1,3,4,4]:fp32 fp32 from onnx:Conv\n"));
    EXPECT_LT(testing::output_difference(after, before, testing::random_inputs(before)), 1e-6)
        << (conv_bias ? "with" : "without") << " a conv bias";
  }
}

TEST(FoldConvBatchNorm, TinyCnnUnfoldedFoldsToTheOpsOfTheFoldedExport) {
  const auto compiled = [](const std::string& model) {
    ir::Graph graph = frontend::load_workload(std::string(POLYARCH_SOURCE_DIR) +
                                              "/tests/data/onnx/" + model + ".onnx");
    lower::standard_pipeline().run(graph);
    return graph;
  };
  const ir::Graph unfolded = compiled("tiny_cnn_unfolded");
  const ir::Graph folded = compiled("tiny_cnn");
  EXPECT_EQ(testing::op_kinds(unfolded), testing::op_kinds(folded));
  for (const std::string& kind : testing::op_kinds(unfolded)) {
    EXPECT_NE(kind, "elementwise:batchnorm");
  }
}

}  // namespace
}  // namespace polyarch::passes
