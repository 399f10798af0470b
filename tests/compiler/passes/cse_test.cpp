// Common-subexpression elimination before/after.
#include "compiler/passes/cse.h"

#include <gtest/gtest.h>

#include <cstring>

#include "compiler/lower/pipeline.h"
#include "compiler/passes/constant_folding.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;
using testing::tensor_named;

TEST(CommonSubexpression, MergesEqualOpsAndRewiresTheirReaders) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"r1"}, {}, "relu_a");
  b.node("Relu", {"x"}, {"r2"}, {}, "relu_b");
  b.node("Add", {"r1", "r2"}, {"y"}, {}, "add");
  b.output("y");
  const PassStatistics statistics = CommonSubexpressionPass().run(b.graph);
  EXPECT_EQ(ir::print_graph(b.graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[2]:fp32\n"
            "%relu_a = onnx:Relu(%x[2]) -> %r1[?]:? native\n"
            "%add = onnx:Add(%r1[?], %r1[?]) -> %y[?]:? native\n"
            "output %y\n");
  EXPECT_EQ(statistics.get("ops merged"), 1);
  EXPECT_FALSE(ir::find_tensor(b.graph, "r2"));
}

TEST(CommonSubexpression, MergesWholeChainsOnceTheirOperandsAreMerged) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"r1"}).node("Neg", {"r1"}, {"n1"});
  b.node("Relu", {"x"}, {"r2"}).node("Neg", {"r2"}, {"n2"});
  b.node("Mul", {"n1", "n2"}, {"y"});
  b.output("y");
  EXPECT_EQ(CommonSubexpressionPass().run(b.graph).get("ops merged"), 2);
  EXPECT_EQ(b.graph.op_count(), 3u);
}

TEST(CommonSubexpression, KeepsOpsThatDifferInAttributesOperandsOrType) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3}).input("z", {2, 3});
  b.node("Transpose", {"x"}, {"t1"}, {{"perm", std::vector<int64_t>{1, 0}}});
  b.node("Transpose", {"x"}, {"t2"}, {{"perm", std::vector<int64_t>{0, 1}}});
  b.node("Relu", {"x"}, {"r1"}).node("Relu", {"z"}, {"r2"});
  b.node("Softmax", {"x"}, {"s1"}, {{"axis", int64_t{1}}});
  b.node("Softmax", {"x"}, {"s2"}, {{"axis", int64_t{0}}});
  for (const char* out : {"t1", "t2", "r1", "r2", "s1", "s2"}) b.output(out);
  const std::string before = ir::print_graph(b.graph);
  EXPECT_EQ(CommonSubexpressionPass().run(b.graph).get("ops merged"), 0);
  EXPECT_EQ(ir::print_graph(b.graph), before);
}

TEST(CommonSubexpression, NeverMergesAnOpThatWritesAGraphOutputOrDrawsRandomNumbers) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"a"}).node("Relu", {"x"}, {"b"});
  b.node("RandomNormalLike", {"x"}, {"c"}).node("RandomNormalLike", {"x"}, {"d"});
  for (const char* out : {"a", "b", "c", "d"}) b.output(out);
  EXPECT_EQ(CommonSubexpressionPass().run(b.graph).get("ops merged"), 0);
  EXPECT_EQ(b.graph.op_count(), 4u);
}

TEST(CommonSubexpression, MergesEqualFoldedConstantsButNotEqualInitializers) {
  // Two shape chains fold to the same Reshape target; two initializers hold equal values.
  OnnxGraphBuilder b;
  b.input("x", {4, 1}).input("y", {1, 4}).input("z", {1, 4});
  b.node("Shape", {"x"}, {"shape_a"}).node("Shape", {"x"}, {"shape_b"});
  b.node("Reshape", {"y", "shape_a"}, {"ra"}).node("Reshape", {"z", "shape_b"}, {"rb"});
  b.ints("target_a", {4, 1}).ints("target_b", {4, 1});
  b.node("Reshape", {"y", "target_a"}, {"rc"}).node("Reshape", {"z", "target_b"}, {"rd"});
  for (const char* bias : {"bias_a", "bias_b"}) {  // zero biases of an untrained model
    b.input(bias, {4});
    ir::Tensor& tensor = b.tensor(bias);
    tensor.role = ir::TensorRole::kWeight;
    tensor.data = std::make_shared<const std::vector<std::byte>>(16, std::byte{0});
  }
  b.node("Add", {"x", "bias_a"}, {"ya"}).node("Add", {"x", "bias_b"}, {"yb"});
  for (const char* out : {"ra", "rb", "rc", "rd", "ya", "yb"}) b.output(out);
  ConstantFoldingPass().run(b.graph);
  const PassStatistics statistics = CommonSubexpressionPass().run(b.graph);
  EXPECT_EQ(statistics.get("constants merged"), 1);
  EXPECT_FALSE(ir::find_tensor(b.graph, "shape_b"));
  for (const char* kept : {"shape_a", "target_a", "target_b", "bias_a", "bias_b"}) {
    EXPECT_TRUE(ir::find_tensor(b.graph, kept)) << kept;
  }
  // Both reshapes write graph outputs, so they stay, reading the one remaining target.
  EXPECT_NE(ir::print_graph(b.graph).find("onnx:Reshape(%z[1,4], %shape_a[2]) -> %rb"),
            std::string::npos);
}

TEST(CommonSubexpression, CanonicalOpsKeepTheSemanticsTheirAttributesLeaveOut) {
  // Two transposes of the same bytes lower to equal Copy attributes; their perms differ.
  OnnxGraphBuilder b;
  b.input("x", {2, 3, 4});
  b.node("Transpose", {"x"}, {"t1"}, {{"perm", std::vector<int64_t>{0, 2, 1}}});
  b.node("Transpose", {"x"}, {"t2"}, {{"perm", std::vector<int64_t>{2, 1, 0}}});
  b.node("Transpose", {"x"}, {"t3"}, {{"perm", std::vector<int64_t>{0, 2, 1}}});
  b.node("Add", {"t1", "t3"}, {"s"});
  b.output("s").output("t2");
  lower::standard_pipeline().run(b.graph);  // cse runs before lowering; t3 merges into t1
  EXPECT_EQ(b.graph.op_count(), 3u);
  EXPECT_EQ(CommonSubexpressionPass().run(b.graph).get("ops merged"), 0);
}

}  // namespace
}  // namespace polyarch::passes
