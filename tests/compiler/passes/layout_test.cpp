// Layout before/after: NHWC convolutions with transposes where producers and consumers disagree.
#include "compiler/passes/layout.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/pipeline.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::OnnxGraphBuilder;

// x[1,3,8,8] -> Conv -> Neg -> MaxPool -> Flatten -> MatMul -> y (Neg: no fusion takes it)
OnnxGraphBuilder small_cnn() {
  OnnxGraphBuilder b;
  b.input("x", {1, 3, 8, 8}).weight("w", {4, 3, 3, 3}).weight("fc", {64, 10});
  b.ints("flat", {1, 64});
  b.node("Conv", {"x", "w"}, {"c"}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}, "conv");
  b.node("Neg", {"c"}, {"r"}, {}, "neg");
  b.node("MaxPool", {"r"}, {"p"},
         {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}},
         "pool");
  b.node("Reshape", {"p", "flat"}, {"f"}, {}, "flatten");
  b.node("MatMul", {"f", "fc"}, {"y"}, {}, "fc");
  b.output("y");
  return b;
}

PassStatistics layout_statistics(const std::vector<PassRecord>& records) {
  for (const PassRecord& record : records) {
    if (record.pass == "layout") return record.statistics;
  }
  throw std::runtime_error("no layout pass");
}

TEST(LayoutPass, NhwcTargetTransposesIntoTheConvolutionsAndBackBeforeTheReshape) {
  OnnxGraphBuilder b = small_cnn();
  const auto records = lower::standard_pipeline({.conv_layout = ir::Layout::kNhwc}).run(b.graph);
  const PassStatistics statistics = layout_statistics(records);
  EXPECT_EQ(statistics.get("nhwc ops"), 3);  // conv, neg, pool
  EXPECT_EQ(statistics.get("transposes"), 2);
  const std::string ir = ir::print_graph(b.graph);
  EXPECT_THAT(ir,
              HasSubstr("%x.to_nhwc = copy(%x[1,3,8,8]) bytes=768 -> %x@nhwc[1,3,8,8]:fp32 fp32 "
                        "layout=nhwc input=signed from onnx:Identity\n"));
  EXPECT_THAT(ir, HasSubstr("%conv = conv2d(%x@nhwc[1,3,8,8], %w[4,3,3,3])"));
  EXPECT_THAT(ir, HasSubstr("layout=nhwc input=signed from onnx:Conv@17 {pads=[1,1,1,1]}\n%neg"));
  EXPECT_THAT(ir,
              HasSubstr("%p.to_nchw = copy(%p[1,4,4,4]) bytes=256 -> %p@nchw[1,4,4,4]:fp32 fp32 "
                        "layout=nchw input=signed from onnx:Identity\n"));
  EXPECT_THAT(ir, HasSubstr("%flatten = copy(%p@nchw[1,4,4,4])"));
}

TEST(LayoutPass, NchwTargetOrNoTargetLeavesTheGraphAsImported) {
  for (const std::optional<ir::Layout> target :
       {std::optional<ir::Layout>(ir::Layout::kNchw), std::optional<ir::Layout>()}) {
    OnnxGraphBuilder b = small_cnn();
    const auto records = lower::standard_pipeline({.conv_layout = target}).run(b.graph);
    EXPECT_EQ(layout_statistics(records).get("transposes"), 0);
    EXPECT_THAT(ir::print_graph(b.graph), Not(HasSubstr("layout=")));
  }
}

TEST(LayoutPass, ATensorTwoConvolutionsReadIsTransposedOnce) {
  OnnxGraphBuilder b;
  b.input("x", {1, 3, 8, 8}).weight("w1", {4, 3, 1, 1}).weight("w2", {4, 3, 1, 1});
  b.node("Conv", {"x", "w1"}, {"a"}).node("Conv", {"x", "w2"}, {"b"});
  b.node("Add", {"a", "b"}, {"s"});
  b.output("s");
  const auto records = lower::standard_pipeline({.conv_layout = ir::Layout::kNhwc}).run(b.graph);
  const PassStatistics statistics = layout_statistics(records);
  // Into NHWC once for both, and back for the graph output, which keeps its name.
  EXPECT_EQ(statistics.get("transposes"), 2);
  EXPECT_EQ(statistics.get("reused"), 1);
  const std::string ir = ir::print_graph(b.graph);
  EXPECT_THAT(ir, HasSubstr("%s@nhwc.to_nchw = copy(%s@nhwc[1,4,8,8]) bytes=1024 -> %s[1,4,8,8]"));
  EXPECT_EQ(testing::tensor_named(b.graph, "s").role, ir::TensorRole::kOutput);
}

}  // namespace
}  // namespace polyarch::passes
