// Imported nodes executed before any pass: result shapes inferred from the actual operands,
// shape chains evaluated, compute nodes through their lowering rule.
#include "compiler/interp/execute_frontend.h"

#include <gtest/gtest.h>

#include "compiler/interp/interpreter.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::interp {
namespace {

using polyarch::testing::OnnxGraphBuilder;
using AttributeMap = std::map<std::string, ir::AttributeValue>;

const DenseTensor kInput{{2, 4}, {-1, 2, -3, 4, 5, -6, 7, -8}};

std::vector<float> run_only_output(const ir::Graph& graph) {
  const std::vector<NamedTensor> outputs = run_graph(graph, {{"x", kInput}});
  EXPECT_EQ(outputs.size(), 1u);
  return outputs.at(0).tensor.values;
}

// The exporters' Shape -> Gather -> Unsqueeze -> Concat -> Reshape chain flattening x's
// trailing axes, then a Relu: nothing in it has a known shape before folding.
TEST(ExecuteFrontend, ShapeChainThenComputeBeforeAnyPass) {
  OnnxGraphBuilder b;
  b.input("x", {2, 4}).ints("zero", {0}, true).ints("axes", {0}).ints("minus_one", {-1});
  b.node("Shape", {"x"}, {"shape"});
  b.node("Gather", {"shape", "zero"}, {"rows"}, AttributeMap{{"axis", int64_t{0}}});
  b.node("Unsqueeze", {"rows", "axes"}, {"rows_1d"});
  b.node("Concat", {"rows_1d", "minus_one"}, {"target"}, AttributeMap{{"axis", int64_t{0}}});
  b.node("Transpose", {"x"}, {"xt"}, AttributeMap{{"perm", std::vector<int64_t>{1, 0}}});
  b.node("Reshape", {"xt", "target"}, {"flat"});
  b.node("Relu", {"flat"}, {"y"});
  b.output("y");
  ASSERT_FALSE(b.tensor("flat").shape_known());
  const std::vector<float> expected = {0, 5, 2, 0, 0, 7, 4, 0};  // relu(x^T) as [4, 2]
  EXPECT_EQ(run_only_output(b.graph), expected);
  lower::standard_pipeline().run(b.graph);
  EXPECT_FALSE(lower::needs_lowering(b.graph));
  EXPECT_EQ(run_only_output(b.graph), expected);
}

TEST(ExecuteFrontend, SliceReadsItsBoundsFromConstantOperands) {
  OnnxGraphBuilder b;
  b.input("x", {2, 4}).ints("starts", {1}).ints("ends", {3}).ints("axes", {1});
  b.node("Slice", {"x", "starts", "ends", "axes"}, {"y"});
  b.output("y");
  const std::vector<NamedTensor> outputs = run_graph(b.graph, {{"x", kInput}});
  EXPECT_EQ(outputs.at(0).tensor.shape, (Shape{2, 2}));
  EXPECT_EQ(outputs.at(0).tensor.values, (std::vector<float>{2, -3, -6, 7}));
  // Lowered, the copy reads only x; its node keeps the bounds.
  lower::standard_pipeline().run(b.graph);
  EXPECT_EQ(run_only_output(b.graph), (std::vector<float>{2, -3, -6, 7}));
}

// ReduceSum reads its axes from an operand (opset 13); lowering drops the operand and keeps
// the axes with the node, so the lowered reduction still sums columns, not rows.
TEST(ExecuteFrontend, ReductionOverAnAxisOperand) {
  OnnxGraphBuilder b;
  b.input("x", {2, 4}).ints("axes", {0});
  b.node("ReduceSum", {"x", "axes"}, {"y"}, AttributeMap{{"keepdims", int64_t{0}}});
  b.output("y");
  const std::vector<float> column_sums = {4, -4, 4, -4};
  EXPECT_EQ(run_only_output(b.graph), column_sums);
  lower::standard_pipeline().run(b.graph);
  EXPECT_EQ(run_only_output(b.graph), column_sums);
}

TEST(ExecuteFrontend, SplitGivesEveryResult) {
  OnnxGraphBuilder b;
  b.input("x", {2, 4}).ints("sizes", {1, 3});
  b.node("Split", {"x", "sizes"}, {"left", "right"}, AttributeMap{{"axis", int64_t{1}}});
  b.node("Add", {"left", "right"}, {"y"});  // [2,1] + [2,3] broadcasts
  b.output("y");
  EXPECT_EQ(run_only_output(b.graph), (std::vector<float>{1, -4, 3, -1, 12, -3}));
}

TEST(ExecuteFrontend, ErrorsNameTheNode) {
  OnnxGraphBuilder b;
  b.input("x", {2, 4}).input("w", {3, 5});
  b.node("MatMul", {"x", "w"}, {"y"}, {}, "mm");
  b.output("y");
  try {
    run_graph(b.graph, {{"x", kInput}, {"w", DenseTensor{{3, 5}, std::vector<float>(15)}}});
    FAIL() << "mismatched inner dimensions ran";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(error.where().to_string().find("mm"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace polyarch::interp
