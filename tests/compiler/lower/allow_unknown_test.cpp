// --allow-unknown: unsupported ONNX operators as placeholders costed by their output bytes.
#include "compiler/lower/allow_unknown.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/pipeline.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::lower {
namespace {

using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;

// The message of the bad-input error the action throws.
std::string bad_input_message(const std::function<void()>& action) {
  const std::optional<Error> error = polyarch::testing::capture_error(action);
  if (!error) return "<no error>";
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  return error->what();
}

const ir::Op& op_named(const ir::Graph& graph, const std::string& name) {
  for (ir::NodeId id : graph.topological_ops()) {
    if (graph.op(id).name == name) return graph.op(id);
  }
  throw std::runtime_error("no op " + name);
}

// x[2,3] -> Reshape(target from a shape chain) -> FooBar -> Relu -> y
OnnxGraphBuilder model_with_unknown_op(const std::string& domain = "") {
  OnnxGraphBuilder b;
  b.input("x", {2, 3}).ints("target", {3, 2});
  b.node("Reshape", {"x", "target"}, {"r"});
  b.node("FooBar", {"r"}, {"f"}, {}, "mystery");
  b.node("Relu", {"f"}, {"y"});
  b.output("y");
  if (!domain.empty()) {
    for (ir::NodeId id : b.graph.topological_ops()) {
      if (b.graph.op(id).name == "mystery") {
        std::get<ir::OnnxNodeAttrs>(b.graph.op(id).attrs).domain = domain;
      }
    }
  }
  return b;
}

TEST(AllowUnknown, WithoutTheFlagAnUnsupportedOperatorIsAnErrorNamingNodeTypeAndOpset) {
  OnnxGraphBuilder b = model_with_unknown_op();
  const std::string message = bad_input_message(
      [&] { standard_pipeline().run(b.graph); });
  EXPECT_THAT(message, HasSubstr("mystery"));
  EXPECT_THAT(message, HasSubstr("unsupported ONNX operator FooBar (opset 17)"));
  EXPECT_THAT(message, HasSubstr("--allow-unknown"));
}

TEST(AllowUnknown, AnUndeclaredResultTakesItsFirstOperandsShapeAndCostsItsOutputBytes) {
  OnnxGraphBuilder b = model_with_unknown_op();
  const std::vector<passes::PassRecord> records =
      standard_pipeline({.allow_unknown = true}).run(b.graph);
  EXPECT_EQ(records.front().pass, "allow-unknown");
  EXPECT_EQ(records.front().statistics.get("unknown ops"), 1);
  EXPECT_EQ(records.front().statistics.get("shape assumed"), 1);
  const ir::Op& op = op_named(b.graph, "mystery");
  const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attrs);
  EXPECT_EQ(attrs.fn, "unknown:FooBar");
  EXPECT_EQ(attrs.elements, 6);
  EXPECT_EQ(ir::bytes_touched(op), 2 * 6 * 4);  // its fp32 output, read and written once
  EXPECT_EQ(polyarch::testing::tensor_named(b.graph, "f").shape, (std::vector<int64_t>{3, 2}));
}

TEST(AllowUnknown, ADeclaredResultShapeIsUsedAsItIs) {
  OnnxGraphBuilder b = model_with_unknown_op();
  b.tensor("f").shape = {12};
  b.tensor("f").dtype = ir::DType::kFp16;
  b.tensor("f").dtype_known = true;
  const std::vector<passes::PassRecord> records =
      standard_pipeline({.allow_unknown = true}).run(b.graph);
  EXPECT_EQ(records.front().statistics.get("declared"), 1);
  const ir::Op& op = op_named(b.graph, "mystery");
  EXPECT_EQ(std::get<ir::ElementwiseAttrs>(op.attrs).elements, 12);
  EXPECT_EQ(op.lowered_from->op_type, "FooBar");
}

TEST(AllowUnknown, ACustomDomainOperatorKeepsItsDomainInTheFunctionName) {
  OnnxGraphBuilder b = model_with_unknown_op("com.example");
  standard_pipeline({.allow_unknown = true}).run(b.graph);
  EXPECT_EQ(std::get<ir::ElementwiseAttrs>(op_named(b.graph, "mystery").attrs).fn,
            "unknown:com.example.FooBar");
  EXPECT_FALSE(needs_lowering(b.graph));
}

TEST(AllowUnknown, AnOperatorWithNeitherOperandsNorDeclaredResultsIsAnError) {
  OnnxGraphBuilder b;
  b.node("MakeSomething", {}, {"m"}, {}, "maker");
  b.output("m");
  const std::string message = bad_input_message(
      [&] { standard_pipeline({.allow_unknown = true}).run(b.graph); });
  EXPECT_THAT(message, HasSubstr("maker"));
  EXPECT_THAT(message, HasSubstr("no operand to take its result shape from"));
}

}  // namespace
}  // namespace polyarch::lower
