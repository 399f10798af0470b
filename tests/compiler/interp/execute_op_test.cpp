// Canonical ops run from what their imported node said: operands given only at run time, and
// the cases ONNX leaves open, which the interpreter refuses by name instead of guessing.
#include "compiler/interp/execute_op.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "compiler/interp/interpreter.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::interp {
namespace {

using polyarch::testing::OnnxGraphBuilder;
using AttributeMap = std::map<std::string, ir::AttributeValue>;

// The message of the bad-input error running the lowered graph raises; empty if it ran.
std::string refusal(ir::Graph& graph, const std::vector<NamedTensor>& inputs) {
  lower::standard_pipeline().run(graph);
  try {
    run_graph(graph, inputs);
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    return error.what();
  }
  return "";
}

// Axes fed as a graph input are known only when the graph runs; the declared result shape [3, 2]
// fits reducing axis 1 or axis 2 of [3, 2, 2] alike. ONNX's test_reduce_sum_do_not_keepdims
// sums axis 1: [[1, 2], [3, 4]] gives [4, 6].
TEST(ExecuteOp, ReductionReadsAxesGivenAtRunTime) {
  OnnxGraphBuilder b;
  b.input("x", {3, 2, 2}).input("axes", {1}, ir::DType::kInt64);
  b.node("ReduceSum", {"x", "axes"}, {"y"}, AttributeMap{{"keepdims", int64_t{0}}});
  b.output("y");
  b.tensor("y").shape = {3, 2};
  b.tensor("y").dtype_known = true;
  lower::standard_pipeline().run(b.graph);
  const DenseTensor x{{3, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
  DenseTensor axes{{1}, {1}};
  axes.dtype = ir::DType::kInt64;
  const std::vector<NamedTensor> outputs = run_graph(b.graph, {{"x", x}, {"axes", axes}});
  EXPECT_EQ(outputs.at(0).tensor.values, (std::vector<float>{4, 6, 12, 14, 20, 22}));
}

TEST(ExecuteOp, EmptyConstantAxesReduceEveryAxisUnlessNoop) {
  for (const int64_t noop : {0, 1}) {
    OnnxGraphBuilder b;
    b.input("x", {2, 2}).ints("axes", {});
    b.node("ReduceSum", {"x", "axes"}, {"y"}, AttributeMap{{"noop_with_empty_axes", noop}});
    b.output("y");
    lower::standard_pipeline().run(b.graph);
    const std::vector<NamedTensor> outputs =
        run_graph(b.graph, {{"x", DenseTensor{{2, 2}, {1, 2, 3, 4}}}});
    const std::vector<float> expected =
        noop != 0 ? std::vector<float>{1, 2, 3, 4} : std::vector<float>{10};
    EXPECT_EQ(outputs.at(0).tensor.values, expected) << "noop_with_empty_axes=" << noop;
  }
}

TEST(ExecuteOp, TrainingModeDropoutIsRefusedByNameUnlessItsRatioIsZero) {
  for (const float ratio : {0.5f, 0.0f}) {
    OnnxGraphBuilder b;
    b.input("x", {2}).input("ratio", {}).input("training", {}, ir::DType::kBool);
    b.node("Dropout", {"x", "ratio", "training"}, {"y"}, {}, "drop");
    b.output("y");
    DenseTensor on{{}, {1}};
    on.dtype = ir::DType::kBool;
    const std::string message = refusal(
        b.graph,
        {{"x", DenseTensor{{2}, {3, 4}}}, {"ratio", DenseTensor{{}, {ratio}}}, {"training", on}});
    if (ratio == 0.0f) {
      EXPECT_EQ(message, "") << "a zero ratio keeps every element: the identity";
    } else {
      EXPECT_NE(message.find("'drop'"), std::string::npos) << message;
      EXPECT_NE(message.find("Dropout training_mode=true with ratio 0.5:"), std::string::npos)
          << message;
    }
  }
}

TEST(ExecuteOp, CastToBfloat16IsRefusedByName) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Cast", {"x"}, {"y"}, AttributeMap{{"to", int64_t{16}}}, "to_bf16");
  b.output("y");
  const std::string message = refusal(b.graph, {{"x", DenseTensor{{2}, {0.48f, 1.0f}}}});
  EXPECT_NE(message.find("'to_bf16'"), std::string::npos) << message;
  EXPECT_NE(message.find("Cast to=BFLOAT16:"), std::string::npos) << message;
}

TEST(ExecuteOp, IntegerDivisionByZeroIsRefused) {
  OnnxGraphBuilder b;
  b.input("x", {2}, ir::DType::kInt32).input("y", {2}, ir::DType::kInt32);
  b.node("Div", {"x", "y"}, {"z"}, {}, "divide");
  b.output("z");
  DenseTensor x{{2}, {6, 3}};
  DenseTensor y{{2}, {2, 0}};
  x.dtype = y.dtype = ir::DType::kInt32;
  const std::string message = refusal(b.graph, {{"x", x}, {"y", y}});
  EXPECT_NE(message.find("'divide'"), std::string::npos) << message;
  EXPECT_NE(message.find("Div divides an integer by zero"), std::string::npos) << message;
}

// A 3x3 window with stride 2 over 4x4 gives 1x1 by floor and 2x2 by ceil_mode, whose second
// window starts at 2 and hangs one past the end: it takes the maximum of rows (or columns) 2
// and 3 only, so the maxima of 1..16 are 11, 12, 15 and 16. A 2x2 window fits exactly.
TEST(ExecuteOp, PoolWithCeilModeWindowsPastTheEndCutsThemAtTheEnd) {
  const DenseTensor x{{1, 1, 4, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
  for (const int64_t kernel : {3, 2}) {
    OnnxGraphBuilder b;
    b.input("x", {1, 1, 4, 4});
    b.node("MaxPool", {"x"}, {"y"},
           AttributeMap{{"kernel_shape", std::vector<int64_t>{kernel, kernel}},
                        {"strides", std::vector<int64_t>{2, 2}},
                        {"ceil_mode", int64_t{1}}},
           "pool");
    b.output("y");
    EXPECT_EQ(refusal(b.graph, {{"x", x}}), "");
    EXPECT_EQ(
        run_graph(b.graph, {{"x", x}}).at(0).tensor.values,
        kernel == 3 ? (std::vector<float>{11, 12, 15, 16}) : (std::vector<float>{6, 8, 14, 16}));
  }
}

}  // namespace
}  // namespace polyarch::interp
