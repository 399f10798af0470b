// ONNX shape inference per op type on small hand-built graphs.
#include "compiler/passes/shape_inference.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;
using AttributeMap = std::map<std::string, ir::AttributeValue>;

std::vector<int64_t> inferred(OnnxGraphBuilder& builder, const std::string& result) {
  ShapeInferencePass().run(builder.graph);
  return builder.tensor(result).shape;
}

TEST(OnnxShapeInference, ConvUsesStridesPadsAndGroups) {
  OnnxGraphBuilder b;
  b.input("x", {1, 32, 16, 16}).weight("w", {32, 1, 3, 3}).weight("bias", {32});
  b.node("Conv", {"x", "w", "bias"}, {"y"},
         AttributeMap{{"group", int64_t{32}},
                      {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                      {"strides", std::vector<int64_t>{2, 2}}});
  EXPECT_THAT(inferred(b, "y"), ElementsAre(1, 32, 8, 8));
}

TEST(OnnxShapeInference, MaxPoolAndGlobalAveragePool) {
  OnnxGraphBuilder b;
  b.input("x", {1, 64, 112, 112});
  b.node("MaxPool", {"x"}, {"p"},
         AttributeMap{{"kernel_shape", std::vector<int64_t>{3, 3}},
                      {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                      {"strides", std::vector<int64_t>{2, 2}}});
  b.node("GlobalAveragePool", {"p"}, {"g"});
  EXPECT_THAT(inferred(b, "p"), ElementsAre(1, 64, 56, 56));
  EXPECT_THAT(b.tensor("g").shape, ElementsAre(1, 64, 1, 1));
}

TEST(OnnxShapeInference, GemmHonoursTransB) {
  OnnxGraphBuilder b;
  b.input("x", {1, 2048}).weight("w", {1000, 2048}).weight("c", {1000});
  b.node("Gemm", {"x", "w", "c"}, {"y"}, AttributeMap{{"transB", int64_t{1}}});
  EXPECT_THAT(inferred(b, "y"), ElementsAre(1, 1000));
}

TEST(OnnxShapeInference, MatMulBroadcastsBatchAxes) {
  OnnxGraphBuilder b;
  b.input("q", {1, 12, 128, 64}).input("k", {1, 12, 64, 128}).weight("w", {64, 32});
  b.node("MatMul", {"q", "k"}, {"scores"});
  b.node("MatMul", {"q", "w"}, {"projected"});
  EXPECT_THAT(inferred(b, "scores"), ElementsAre(1, 12, 128, 128));
  EXPECT_THAT(b.tensor("projected").shape, ElementsAre(1, 12, 128, 32));
}

TEST(OnnxShapeInference, MatMulInnerDimensionMismatchNamesTheNode) {
  OnnxGraphBuilder b;
  b.input("a", {1, 128, 768}).weight("w", {512, 768});
  b.node("MatMul", {"a", "w"}, {"y"}, {}, "proj");
  const std::string error = testing::error_text([&] { ShapeInferencePass().run(b.graph); });
  EXPECT_THAT(error, HasSubstr("'proj' (MatMul)"));
  EXPECT_THAT(error, HasSubstr("inner dimensions differ: [1,128,768] x [512,768]"));
}

TEST(OnnxShapeInference, BroadcastingArithmeticAndComparisons) {
  OnnxGraphBuilder b;
  b.input("x", {1, 12, 128, 128}).input("mask", {1, 1, 1, 128}).input("s", {});
  b.node("Add", {"x", "mask"}, {"sum"});
  b.node("Div", {"sum", "s"}, {"quotient"});
  b.node("Equal", {"x", "mask"}, {"same"});
  b.node("Where", {"same", "s", "x"}, {"chosen"});
  EXPECT_THAT(inferred(b, "sum"), ElementsAre(1, 12, 128, 128));
  EXPECT_THAT(b.tensor("quotient").shape, ElementsAre(1, 12, 128, 128));
  EXPECT_EQ(b.tensor("same").dtype, ir::DType::kBool);
  EXPECT_EQ(b.tensor("chosen").dtype, ir::DType::kFp32);
}

TEST(OnnxShapeInference, IncompatibleBroadcastIsAnError) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3}).input("y", {4});
  b.node("Mul", {"x", "y"}, {"z"});
  EXPECT_THAT(testing::error_text([&] { ShapeInferencePass().run(b.graph); }),
              HasSubstr("do not broadcast"));
}

TEST(OnnxShapeInference, UnaryOpsKeepShapeAndCastChangesType) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3});
  for (const char* type : {"Relu", "Erf", "Tanh", "Sqrt", "Softmax", "Identity"}) {
    b.node(type, {"x"}, {std::string(type) + "_out"});
  }
  b.node("Cast", {"x"}, {"as_int"}, AttributeMap{{"to", int64_t{7}}});  // INT64
  b.node("IsNaN", {"x"}, {"nan"});
  ShapeInferencePass().run(b.graph);
  for (const char* type : {"Relu", "Erf", "Tanh", "Sqrt", "Softmax", "Identity"}) {
    EXPECT_THAT(b.tensor(std::string(type) + "_out").shape, ElementsAre(2, 3)) << type;
  }
  EXPECT_EQ(b.tensor("as_int").dtype, ir::DType::kInt64);
  EXPECT_EQ(b.tensor("nan").dtype, ir::DType::kBool);
}

TEST(OnnxShapeInference, LayerNormalizationAndBatchNormalization) {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 768}).weight("g", {768}).weight("beta", {768});
  b.node("LayerNormalization", {"x", "g", "beta"}, {"y", "mean"});
  b.input("img", {1, 16, 8, 8});
  for (const char* name : {"s", "o", "m", "v"}) b.weight(name, {16});
  b.node("BatchNormalization", {"img", "s", "o", "m", "v"}, {"bn"});
  EXPECT_THAT(inferred(b, "y"), ElementsAre(1, 128, 768));
  EXPECT_THAT(b.tensor("mean").shape, ElementsAre(1, 128, 1));
  EXPECT_THAT(b.tensor("bn").shape, ElementsAre(1, 16, 8, 8));
}

TEST(OnnxShapeInference, ReduceMeanWithAxesAttributeAndOperand) {
  OnnxGraphBuilder b;
  b.input("x", {1, 32, 8, 8}).ints("axes", {-1});
  b.node("ReduceMean", {"x"}, {"pooled"},
         AttributeMap{{"axes", std::vector<int64_t>{2, 3}}, {"keepdims", int64_t{0}}});
  b.node("ReduceMean", {"x", "axes"}, {"last"});
  EXPECT_THAT(inferred(b, "pooled"), ElementsAre(1, 32));
  EXPECT_THAT(b.tensor("last").shape, ElementsAre(1, 32, 8, 1));
}

TEST(OnnxShapeInference, ReshapeCopiesZerosAndInfersMinusOne) {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 768}).ints("target", {0, 0, 12, -1});
  b.node("Reshape", {"x", "target"}, {"y"});
  EXPECT_THAT(inferred(b, "y"), ElementsAre(1, 128, 12, 64));
}

TEST(OnnxShapeInference, ReshapeToWrongElementCountIsAnError) {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 768}).ints("target", {1, 128, 12, 60});
  b.node("Reshape", {"x", "target"}, {"y"}, {}, "bad_reshape");
  EXPECT_THAT(testing::error_text([&] { ShapeInferencePass().run(b.graph); }),
              HasSubstr("'bad_reshape' (Reshape): Reshape cannot reshape [1,128,768]"));
}

TEST(OnnxShapeInference, FlattenTransposeConcat) {
  OnnxGraphBuilder b;
  b.input("x", {1, 2048, 1, 1}).input("t", {1, 128, 12, 64}).input("u", {1, 3, 4});
  b.input("v", {1, 5, 4});
  b.node("Flatten", {"x"}, {"flat"});
  b.node("Transpose", {"t"}, {"tt"}, AttributeMap{{"perm", std::vector<int64_t>{0, 2, 3, 1}}});
  b.node("Concat", {"u", "v"}, {"cat"}, AttributeMap{{"axis", int64_t{1}}});
  EXPECT_THAT(inferred(b, "flat"), ElementsAre(1, 2048));
  EXPECT_THAT(b.tensor("tt").shape, ElementsAre(1, 12, 64, 128));
  EXPECT_THAT(b.tensor("cat").shape, ElementsAre(1, 8, 4));
}

TEST(OnnxShapeInference, GatherSqueezeUnsqueezeShapeSlice) {
  OnnxGraphBuilder b;
  b.weight("table", {30522, 768}).input("ids", {1, 128}, ir::DType::kInt64);
  b.ints("axes", {0}).ints("starts", {1}).ints("ends", {1000}).ints("slice_axes", {1});
  b.node("Gather", {"table", "ids"}, {"embedded"});
  b.node("Unsqueeze", {"ids", "axes"}, {"unsqueezed"});
  b.node("Squeeze", {"unsqueezed", "axes"}, {"squeezed"});
  b.node("Shape", {"embedded"}, {"shape"});
  b.node("Slice", {"embedded", "starts", "ends", "slice_axes"}, {"sliced"});
  EXPECT_THAT(inferred(b, "embedded"), ElementsAre(1, 128, 768));
  EXPECT_THAT(b.tensor("unsqueezed").shape, ElementsAre(1, 1, 128));
  EXPECT_THAT(b.tensor("squeezed").shape, ElementsAre(1, 128));
  EXPECT_THAT(b.tensor("shape").shape, ElementsAre(3));
  EXPECT_EQ(b.tensor("shape").dtype, ir::DType::kInt64);
  EXPECT_THAT(b.tensor("sliced").shape, ElementsAre(1, 127, 768));
}

TEST(OnnxShapeInference, SplitExpandConstantOfShape) {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 2304}).input("row", {1, 128}).ints("target", {4, 1, 128});
  b.ints("dims", {2, 3});
  b.node("Split", {"x"}, {"q", "k", "v"},
         AttributeMap{{"axis", int64_t{2}}, {"num_outputs", int64_t{3}}});
  b.node("Expand", {"row", "target"}, {"expanded"});
  b.node("ConstantOfShape", {"dims"}, {"zeros"});
  ShapeInferencePass().run(b.graph);
  EXPECT_THAT(b.tensor("k").shape, ElementsAre(1, 128, 768));
  EXPECT_THAT(b.tensor("expanded").shape, ElementsAre(4, 1, 128));
  EXPECT_THAT(b.tensor("zeros").shape, ElementsAre(2, 3));
}

TEST(OnnxShapeInference, QuantizeLinearTakesTheZeroPointType) {
  OnnxGraphBuilder b;
  b.input("x", {1, 3, 32, 32}).input("scale", {}).input("zero", {}, ir::DType::kUint8);
  b.node("QuantizeLinear", {"x", "scale", "zero"}, {"q"});
  b.node("DequantizeLinear", {"q", "scale", "zero"}, {"dq"});
  ShapeInferencePass().run(b.graph);
  EXPECT_EQ(b.tensor("q").dtype, ir::DType::kUint8);
  EXPECT_EQ(b.tensor("dq").dtype, ir::DType::kFp32);
  EXPECT_THAT(b.tensor("dq").shape, ElementsAre(1, 3, 32, 32));
}

TEST(OnnxShapeInference, ArgMaxKeepsOrDropsItsAxisAsInt64) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3, 4});
  b.node("ArgMax", {"x"}, {"kept"}, AttributeMap{{"axis", int64_t{1}}});
  b.node("ArgMin", {"x"}, {"dropped"},
         AttributeMap{{"axis", int64_t{-1}}, {"keepdims", int64_t{0}}});
  ShapeInferencePass().run(b.graph);
  EXPECT_THAT(b.tensor("kept").shape, ElementsAre(2, 1, 4));
  EXPECT_EQ(b.tensor("kept").dtype, ir::DType::kInt64);
  EXPECT_THAT(b.tensor("dropped").shape, ElementsAre(2, 3));
}

TEST(OnnxShapeInference, GatherNdTileAndPadFromConstantSizes) {
  OnnxGraphBuilder b;
  b.input("data", {2, 3, 4}).input("tuples", {5, 2}, ir::DType::kInt64);
  b.ints("repeats", {1, 2, 3}).ints("pads", {0, 1, 2, 0, 0, 1});
  b.node("GatherND", {"data", "tuples"}, {"gathered"});
  b.node("Tile", {"data", "repeats"}, {"tiled"});
  b.node("Pad", {"data", "pads"}, {"padded"});
  ShapeInferencePass().run(b.graph);
  EXPECT_THAT(b.tensor("gathered").shape, ElementsAre(5, 4));  // [5] tuples of 2, then [4]
  EXPECT_THAT(b.tensor("tiled").shape, ElementsAre(2, 6, 12));
  EXPECT_THAT(b.tensor("padded").shape, ElementsAre(2, 4, 7));
}

TEST(OnnxShapeInference, DepthToSpaceSpaceToDepthAndOneHot) {
  OnnxGraphBuilder b;
  b.input("x", {1, 8, 3, 5}).input("ids", {2, 3}, ir::DType::kInt64).ints("depth", {10});
  b.input("on_off", {2});
  b.node("DepthToSpace", {"x"}, {"space"}, AttributeMap{{"blocksize", int64_t{2}}});
  b.node("SpaceToDepth", {"space"}, {"depth_again"}, AttributeMap{{"blocksize", int64_t{2}}});
  b.node("OneHot", {"ids", "depth", "on_off"}, {"hot"}, AttributeMap{{"axis", int64_t{1}}});
  ShapeInferencePass().run(b.graph);
  EXPECT_THAT(b.tensor("space").shape, ElementsAre(1, 2, 6, 10));
  EXPECT_THAT(b.tensor("depth_again").shape, ElementsAre(1, 8, 3, 5));
  EXPECT_THAT(b.tensor("hot").shape, ElementsAre(2, 10, 3));
  EXPECT_EQ(b.tensor("hot").dtype, ir::DType::kFp32);
}

TEST(OnnxShapeInference, BlocksizeThatDoesNotDivideIsAnError) {
  OnnxGraphBuilder b;
  b.input("x", {1, 6, 2, 2});
  b.node("DepthToSpace", {"x"}, {"y"}, AttributeMap{{"blocksize", int64_t{2}}});
  const std::string message = testing::error_text([&] { ShapeInferencePass().run(b.graph); });
  EXPECT_THAT(message, HasSubstr("blocksize 2 does not divide input [1,6,2,2]"));
}

TEST(OnnxShapeInference, LossesAreScalarsWhenReducedAndShapedAsTargetsOtherwise) {
  OnnxGraphBuilder b;
  b.input("scores", {4, 5, 2}).input("labels", {4, 2}, ir::DType::kInt64);
  b.node("NegativeLogLikelihoodLoss", {"scores", "labels"}, {"mean"});
  b.node("NegativeLogLikelihoodLoss", {"scores", "labels"}, {"each"},
         AttributeMap{{"reduction", std::string("none")}});
  b.node("SoftmaxCrossEntropyLoss", {"scores", "labels"}, {"sce", "log_prob"});
  ShapeInferencePass().run(b.graph);
  EXPECT_TRUE(b.tensor("mean").shape.empty());
  EXPECT_THAT(b.tensor("each").shape, ElementsAre(4, 2));
  EXPECT_TRUE(b.tensor("sce").shape.empty());
  EXPECT_THAT(b.tensor("log_prob").shape, ElementsAre(4, 5, 2));
}

TEST(OnnxShapeInference, LossTargetWithoutTheScoresShapeIsAnError) {
  OnnxGraphBuilder b;
  b.input("scores", {4, 5}).input("labels", {5}, ir::DType::kInt64);
  b.node("NegativeLogLikelihoodLoss", {"scores", "labels"}, {"loss"});
  const std::string message = testing::error_text([&] { ShapeInferencePass().run(b.graph); });
  EXPECT_THAT(message, HasSubstr("target [5] does not match scores [4,5]"));
}

TEST(OnnxShapeInference, DeclaredShapeThatDisagreesIsAnError) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3});
  b.node("Relu", {"x"}, {"y"}, {}, "act");
  b.tensor("y").shape = {3, 2};
  const std::string error = testing::error_text([&] { ShapeInferencePass().run(b.graph); });
  EXPECT_THAT(error, HasSubstr("'act' (Relu)"));
  EXPECT_THAT(error, HasSubstr("declared [3,2] but its operands make it [2,3]"));
}

TEST(OnnxShapeInference, ReshapeWithUnknownTargetIsAnErrorAfterFolding) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3}).input("target", {2}, ir::DType::kInt64);
  b.node("Reshape", {"x", "target"}, {"y"});
  EXPECT_THAT(testing::error_text([&] { ShapeInferencePass().run(b.graph); }),
              HasSubstr("has no known shape"));
}

TEST(OnnxShapeInference, UnsupportedOperatorNamesTypeAndOpset) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3});
  b.node("TfIdfVectorizer", {"x"}, {"y"}, {}, "tfidf");
  EXPECT_THAT(testing::error_text([&] { ShapeInferencePass().run(b.graph); }),
              HasSubstr("unsupported ONNX operator TfIdfVectorizer (opset 17)"));
}

TEST(OnnxShapeInference, EveryUnsupportedOperatorIsListedAtOnceWithCounts) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3});
  b.node("TfIdfVectorizer", {"x"}, {"a"}, {}, "tfidf1");
  b.node("Relu", {"a"}, {"b"});
  b.node("TfIdfVectorizer", {"b"}, {"c"}, {}, "tfidf2");
  b.node("RoiAlign", {"c"}, {"d"}, {}, "roi");
  const std::string message = testing::error_text([&] { ShapeInferencePass().run(b.graph); });
  EXPECT_THAT(message, HasSubstr("3 nodes use 2 unsupported ONNX operators"));
  EXPECT_THAT(message, HasSubstr("TfIdfVectorizer (opset 17): 2 nodes, 'tfidf1', 'tfidf2'"));
  EXPECT_THAT(message, HasSubstr("RoiAlign (opset 17): 1 node, 'roi'"));
}

TEST(OnnxShapeInference, StatisticsCountInferredAndCheckedResults) {
  OnnxGraphBuilder b;
  b.input("x", {2, 3});
  b.node("Relu", {"x"}, {"y"});
  b.node("Relu", {"y"}, {"z"});
  b.tensor("z").shape = {2, 3};
  const PassStatistics statistics = ShapeInferencePass().run(b.graph);
  EXPECT_EQ(statistics.get("inferred"), 1);
  EXPECT_EQ(statistics.get("checked"), 1);
}

}  // namespace
}  // namespace polyarch::passes
