// Constant folding: golden before/after IR of exporter shape chains, and what must not fold.
#include "compiler/passes/constant_folding.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "compiler/passes/tensor_values.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using ::testing::ElementsAre;
using testing::OnnxGraphBuilder;
using testing::tensor_named;
using AttributeMap = std::map<std::string, ir::AttributeValue>;

// Casting -inf or 1e300 to int64 is undefined behaviour; BERT's mask constants (float min, -inf)
// reach integer folds through Cast/Where (UBSan found it).
TEST(FoldedValues, FloatToIntegerTruncatesAndSaturatesAtTheInt64Range) {
  Values values = empty_values(ir::DType::kFp32, {5});
  values.reals = {-2.7, 3.9, -std::numeric_limits<double>::infinity(), 1e300,
                  std::numeric_limits<double>::quiet_NaN()};
  EXPECT_EQ(values.integer(0), -2);
  EXPECT_EQ(values.integer(1), 3);
  EXPECT_EQ(values.integer(2), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(values.integer(3), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(values.integer(4), 0);
}

std::vector<int64_t> ints_of(const ir::Tensor& tensor) {
  const std::optional<Values> values = read_values(tensor);
  return values ? values->ints : std::vector<int64_t>{-999};
}

// x[1,128,768] -> Shape -> Gather(0) -> Unsqueeze -> Concat(.., [128, 12, 64]) -> Reshape.
OnnxGraphBuilder shape_chain() {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 768}).ints("zero", {0}, true).ints("axes", {0}).ints("rest", {128, 12, 64});
  b.node("Shape", {"x"}, {"shape"}, {}, "shape");
  b.node("Gather", {"shape", "zero"}, {"batch"}, AttributeMap{{"axis", int64_t{0}}}, "batch");
  b.node("Unsqueeze", {"batch", "axes"}, {"batch1"}, {}, "unsqueeze");
  b.node("Concat", {"batch1", "rest"}, {"target"}, AttributeMap{{"axis", int64_t{0}}}, "concat");
  b.node("Reshape", {"x", "target"}, {"heads"}, {}, "reshape");
  b.output("heads");
  return b;
}

TEST(ConstantFolding, ShapeChainGoldenBeforeAndAfter) {
  OnnxGraphBuilder b = shape_chain();
  EXPECT_EQ(ir::print_graph(b.graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[1,128,768]:fp32\n"
            "weight %zero[]:int64 {0}\n"
            "weight %axes[1]:int64 {0}\n"
            "weight %rest[3]:int64 {128,12,64}\n"
            "%shape = onnx:Shape(%x[1,128,768]) -> %shape[?]:? native\n"
            "%batch = onnx:Gather(%shape[?], %zero[]) axis=0 -> %batch[?]:? native\n"
            "%unsqueeze = onnx:Unsqueeze(%batch[?], %axes[1]) -> %batch1[?]:? native\n"
            "%concat = onnx:Concat(%batch1[?], %rest[3]) axis=0 -> %target[?]:? native\n"
            "%reshape = onnx:Reshape(%x[1,128,768], %target[?]) -> %heads[?]:? native\n"
            "output %heads\n");
  const PassStatistics statistics = ConstantFoldingPass().run(b.graph);
  EXPECT_EQ(
      ir::print_graph(b.graph),
      "graph \"test\"\n"
      "opset \"\" 17\n"
      "input %x[1,128,768]:fp32\n"
      "weight %zero[]:int64 {0}\n"
      "weight %axes[1]:int64 {0}\n"
      "weight %rest[3]:int64 {128,12,64}\n"
      "input %shape[3]:int64 {1,128,768}\n"
      "input %batch[]:int64 {1}\n"
      "input %batch1[1]:int64 {1}\n"
      "input %target[4]:int64 {1,128,12,64}\n"
      "%reshape = onnx:Reshape(%x[1,128,768], %target[4]) -> %heads[1,128,12,64]:fp32 native\n"
      "output %heads\n");
  EXPECT_EQ(statistics.get("folded"), 4);
  EXPECT_THAT(ints_of(tensor_named(b.graph, "target")), ElementsAre(1, 128, 12, 64));
}

// BERT's export: ConstantOfShape -> Mul -> Equal -> Where -> Expand on constants.
TEST(ConstantFolding, ConstantOfShapeWhereEqualExpandChain) {
  OnnxGraphBuilder b;
  b.ints("one", {1}).ints("minus_one", {-1}, true).ints("wanted", {1, 128});
  b.ints("row", {7});
  b.tensor("row").shape = {1, 1};
  b.node("ConstantOfShape", {"one"}, {"ones"},
         AttributeMap{{"value", [] {
                         ir::Tensor value;
                         value.dtype = ir::DType::kInt64;
                         value.shape = {1};
                         const int64_t one = 1;
                         std::vector<std::byte> bytes(8);
                         std::memcpy(bytes.data(), &one, 8);
                         value.data = std::make_shared<const std::vector<std::byte>>(bytes);
                         return value;
                       }()}});
  b.node("Mul", {"ones", "minus_one"}, {"negative"});
  b.node("Equal", {"wanted", "negative"}, {"is_free"});
  b.node("Where", {"is_free", "ones", "wanted"}, {"target"});
  b.node("Expand", {"row", "target"}, {"expanded"});
  b.output("expanded");
  const PassStatistics statistics = ConstantFoldingPass().run(b.graph);
  EXPECT_EQ(statistics.get("folded"), 5);
  EXPECT_EQ(b.graph.op_count(), 0u);
  EXPECT_THAT(ints_of(tensor_named(b.graph, "target")), ElementsAre(1, 128));
  EXPECT_THAT(tensor_named(b.graph, "expanded").shape, ElementsAre(1, 128));
  EXPECT_EQ(ints_of(tensor_named(b.graph, "expanded")), std::vector<int64_t>(128, 7));
}

// Swin's window padding: (window - size % window) % window. Mod's remainder takes the divisor's
// sign (Python's %) unless fmod=1 asks for the dividend's (C's fmod).
TEST(ConstantFolding, ModFollowsTheDivisorsSignUnlessFmod) {
  OnnxGraphBuilder b;
  b.ints("dividend", {7, -7, 7, -7, 56}).ints("divisor", {3, 3, -3, -3, 7});
  b.node("Mod", {"dividend", "divisor"}, {"python"});
  b.node("Mod", {"dividend", "divisor"}, {"c"}, AttributeMap{{"fmod", int64_t{1}}});
  b.output("python").output("c");
  EXPECT_EQ(ConstantFoldingPass().run(b.graph).get("folded"), 2);
  EXPECT_THAT(ints_of(tensor_named(b.graph, "python")), ElementsAre(1, 2, -2, -1, 0));
  EXPECT_THAT(ints_of(tensor_named(b.graph, "c")), ElementsAre(1, -1, 1, -1, 0));
}

TEST(ConstantFolding, CastOfConstantFoldsAndConstantNodesGo) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Constant", {}, {"c"});
  // The importer gives a Constant's result its value.
  b.tensor("c").dtype = ir::DType::kInt64;
  b.tensor("c").shape = {2};
  Values values = empty_values(ir::DType::kInt64, {2});
  values.ints = {3, 4};
  store_values(values, b.tensor("c"));
  b.node("Cast", {"c"}, {"as_float"}, AttributeMap{{"to", int64_t{1}}});
  b.node("Add", {"x", "as_float"}, {"y"});
  b.output("y");
  const PassStatistics statistics = ConstantFoldingPass().run(b.graph);
  EXPECT_EQ(statistics.get("constants"), 1);
  EXPECT_EQ(statistics.get("folded"), 1);
  const std::optional<Values> cast = read_values(tensor_named(b.graph, "as_float"));
  ASSERT_TRUE(cast);
  EXPECT_EQ(cast->dtype, ir::DType::kFp32);
  EXPECT_THAT(cast->reals, ElementsAre(3.0, 4.0));
  EXPECT_EQ(ir::print_graph(b.graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[2]:fp32\n"
            "input %c[2]:int64 {3,4}\n"
            "input %as_float[2]:fp32 {3,4}\n"
            "%Add_2 = onnx:Add(%x[2], %as_float[2]) -> %y[2]:fp32 native\n"
            "output %y\n");
}

TEST(ConstantFolding, IdentityOfAWeightForwardsIt) {
  OnnxGraphBuilder b;
  b.input("x", {4}).weight("shared_bias", {4});
  b.node("Identity", {"shared_bias"}, {"layer1.bias"});
  b.node("Add", {"x", "layer1.bias"}, {"y"});
  b.output("y");
  EXPECT_EQ(ConstantFoldingPass().run(b.graph).get("forwarded"), 1);
  const ir::Tensor& alias = tensor_named(b.graph, "layer1.bias");
  EXPECT_EQ(alias.role, ir::TensorRole::kWeight);
  EXPECT_THAT(alias.shape, ElementsAre(4));
  EXPECT_TRUE(alias.external_data_missing);
}

TEST(ConstantFolding, LeavesWorkOnParametersAndActivations) {
  OnnxGraphBuilder b;
  b.weight("table", {10, 4}).ints("ids", {1, 2}).input("x", {2, 4});
  b.node("Gather", {"table", "ids"}, {"rows"});  // an embedding lookup is the model's work
  b.node("Relu", {"x"}, {"y"});
  b.output("rows").output("y");
  EXPECT_EQ(ConstantFoldingPass().run(b.graph).get("folded"), 0);
  EXPECT_EQ(b.graph.op_count(), 2u);
}

}  // namespace
}  // namespace polyarch::passes
