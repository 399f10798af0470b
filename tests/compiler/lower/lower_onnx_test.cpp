// Lowering of each ONNX node family to canonical ops.
#include "compiler/lower/lower_onnx.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/passes/constant_folding.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/shape_inference.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::lower {
namespace {

using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;
using AttributeMap = std::map<std::string, ir::AttributeValue>;

// Shape inference then lowering; the graph's IR text afterwards.
std::string lowered(OnnxGraphBuilder& b) {
  passes::ShapeInferencePass().run(b.graph);
  LoweringPass().run(b.graph);
  return ir::print_graph(b.graph);
}

const ir::Op& only_op(const ir::Graph& graph) {
  const std::vector<ir::NodeId> ops = graph.topological_ops();
  EXPECT_EQ(ops.size(), 1u);
  return graph.op(ops.front());
}

TEST(LowerOnnx, ConvBecomesConv2dWithBiasGroupsStridesPads) {
  OnnxGraphBuilder b;
  b.input("x", {1, 32, 16, 16}).weight("w", {32, 1, 3, 3}).weight("bias", {32});
  b.node("Conv", {"x", "w", "bias"}, {"y"},
         AttributeMap{{"group", int64_t{32}},
                      {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                      {"strides", std::vector<int64_t>{2, 2}}},
         "dw");
  b.output("y");
  EXPECT_EQ(lowered(b),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[1,32,16,16]:fp32\n"
            "weight %w[32,1,3,3]:fp32 external\n"
            "weight %bias[32]:fp32 external\n"
            "%dw = conv2d(%x[1,32,16,16], %w[32,1,3,3], %bias[32]) n=1 c=32 h=16 w=16 k=32 "
            "window=3x3 stride=2x2 pad=1x1 groups=32 bias -> %y[1,32,8,8]:fp32 fp32 from onnx:Conv "
            "{group=32 pads=[1,1,1,1] strides=[2,2]}\n"
            "output %y\n");
  EXPECT_EQ(ir::mac_count(only_op(b.graph)), int64_t{32} * 8 * 8 * 9);
}

// DeepLab's atrous 3x3: dilation 2 with pad 2 keeps 28x28; each output still sums 9 taps per
// channel, and the IR text keeps the dilation so the op reads back the same.
TEST(LowerOnnx, DilatedConvKeepsItsDilationAndTheDenseWindowsMacs) {
  OnnxGraphBuilder b;
  b.input("x", {1, 8, 28, 28}).weight("w", {16, 8, 3, 3});
  b.node("Conv", {"x", "w"}, {"y"},
         AttributeMap{{"dilations", std::vector<int64_t>{2, 2}},
                      {"pads", std::vector<int64_t>{2, 2, 2, 2}}},
         "atrous");
  b.output("y");
  EXPECT_THAT(lowered(b), HasSubstr("window=3x3 stride=1x1 pad=2x2 dilation=2x2 groups=1 -> "
                                    "%y[1,16,28,28]"));
  const auto& conv = std::get<ir::Conv2dAttrs>(only_op(b.graph).attrs);
  EXPECT_EQ(conv.dilation_h, 2);
  EXPECT_EQ(conv.out_h(), 28);
  EXPECT_EQ(ir::mac_count(only_op(b.graph)), int64_t{16} * 28 * 28 * 8 * 9);
}

TEST(LowerOnnx, GemmWithTransposedWeightAndBias) {
  OnnxGraphBuilder b;
  b.input("x", {1, 2048}).weight("w", {1000, 2048}).weight("c", {1000});
  b.node("Gemm", {"x", "w", "c"}, {"y"}, AttributeMap{{"transB", int64_t{1}}}, "fc");
  b.output("y");
  EXPECT_EQ(lowered(b),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[1,2048]:fp32\n"
            "weight %w[1000,2048]:fp32 external\n"
            "weight %c[1000]:fp32 external\n"
            "%fc = gemm(%x[1,2048], %w[1000,2048], %c[1000]) m=1 n=1000 k=2048 batch=1 bias -> "
            "%y[1,1000]:fp32 fp32 from onnx:Gemm {transB=1}\n"
            "output %y\n");
}

TEST(LowerOnnx, MatMulWithAWeightFoldsLeadingAxesIntoM) {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 768}).weight("w", {768, 3072});
  b.node("MatMul", {"x", "w"}, {"y"}, {}, "ffn");
  b.output("y");
  EXPECT_THAT(lowered(b),
              HasSubstr("gemm(%x[1,128,768], %w[768,3072]) m=128 n=3072 k=768 batch=1 ->"));
}

TEST(LowerOnnx, MatMulOfTwoActivationsIsABatchedGemm) {
  OnnxGraphBuilder b;
  b.input("q", {1, 12, 128, 64}).input("k", {1, 12, 64, 128});
  b.node("MatMul", {"q", "k"}, {"scores"}, {}, "qk");
  b.output("scores");
  EXPECT_THAT(lowered(b), HasSubstr("m=128 n=128 k=64 batch=12 b_per_batch ->"));
  EXPECT_EQ(ir::mac_count(only_op(b.graph)), int64_t{12} * 128 * 128 * 64);
}

TEST(LowerOnnx, PoolsReductionsSoftmaxAndLayerNorm) {
  OnnxGraphBuilder b;
  b.input("x", {1, 64, 112, 112}).input("h", {1, 128, 768}).weight("g", {768});
  b.weight("beta", {768});
  b.node("MaxPool", {"x"}, {"p"},
         AttributeMap{{"kernel_shape", std::vector<int64_t>{3, 3}},
                      {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                      {"strides", std::vector<int64_t>{2, 2}}},
         "maxpool");
  b.node("GlobalAveragePool", {"p"}, {"g_out"}, {}, "gap");
  b.node("ReduceMean", {"p"}, {"mean"},
         AttributeMap{{"axes", std::vector<int64_t>{2, 3}}, {"keepdims", int64_t{0}}}, "mean");
  b.node("Softmax", {"h"}, {"probs"}, AttributeMap{{"axis", int64_t{-1}}}, "softmax");
  b.node("LayerNormalization", {"h", "g", "beta"}, {"normed"}, {}, "ln");
  for (const char* out : {"g_out", "mean", "probs", "normed"}) b.output(out);
  const std::string ir = lowered(b);
  EXPECT_THAT(
      ir,
      HasSubstr("%maxpool = pool(%x[1,64,112,112]) n=1 c=64 h=112 w=112 max window=3x3 stride=2 "
                "pad=1 -> %p[1,64,56,56]"));
  EXPECT_THAT(
      ir, HasSubstr("%gap = pool(%p[1,64,56,56]) n=1 c=64 h=56 w=56 global window=56x56 stride=1 "
                    "pad=0 -> %g_out[1,64,1,1]"));
  EXPECT_THAT(ir,
              HasSubstr("%mean = reduce(%p[1,64,56,56]) fn=mean rows=64 cols=3136 -> %mean[1,64]"));
  EXPECT_THAT(ir, HasSubstr("%softmax = softmax(%h[1,128,768]) rows=128 cols=768 ->"));
  EXPECT_THAT(
      ir,
      HasSubstr("%ln = norm(%h[1,128,768], %g[768], %beta[768]) layernorm rows=128 cols=768 ->"));
}

TEST(LowerOnnx, ElementwiseCountsFullSizeOperandsOnly) {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 3072}).input("y", {1, 128, 3072}).weight("bias", {3072});
  b.node("Add", {"x", "y"}, {"sum"}, {}, "residual");
  b.node("Add", {"sum", "bias"}, {"biased"}, {}, "bias_add");
  b.node("Erf", {"biased"}, {"erf"}, {}, "erf");
  b.output("erf");
  const std::string ir = lowered(b);
  EXPECT_THAT(ir, HasSubstr("%residual = elementwise(%x[1,128,3072], %y[1,128,3072]) fn=add "
                            "elements=393216 inputs=2"));
  EXPECT_THAT(ir, HasSubstr("%bias_add = elementwise(%sum[1,128,3072], %bias[3072]) fn=add "
                            "elements=393216 inputs=1"));
  EXPECT_THAT(ir,
              HasSubstr("%erf = elementwise(%biased[1,128,3072]) fn=erf elements=393216 inputs=1"));
}

// ONNX Gelu (opset 20): approximate="tanh" is stated on the op (and printed), the default erf
// form prints nothing.
TEST(LowerOnnx, GeluKeepsItsTanhForm) {
  OnnxGraphBuilder b;
  b.input("x", {2, 8}).input("z", {2, 8});
  b.node("Gelu", {"x"}, {"y"}, AttributeMap{{"approximate", std::string("tanh")}}, "tanh_form");
  b.node("Gelu", {"z"}, {"w"}, {}, "erf_form");
  b.output("y").output("w");
  const std::string ir = lowered(b);
  EXPECT_THAT(ir, HasSubstr("fn=gelu elements=16 inputs=1 approximate=tanh -> %y"));
  EXPECT_THAT(ir, HasSubstr("fn=gelu elements=16 inputs=1 -> %w"));
}

TEST(LowerOnnx, ViewsCostNothingTransposeMovesBytesShapeOperandsGo) {
  OnnxGraphBuilder b;
  b.input("x", {1, 128, 768}).ints("target", {1, 128, 12, 64});
  b.node("Reshape", {"x", "target"}, {"heads"}, {}, "split_heads");
  b.node("Transpose", {"heads"}, {"t"}, AttributeMap{{"perm", std::vector<int64_t>{0, 2, 1, 3}}},
         "to_bhsd");
  b.output("t");
  EXPECT_EQ(lowered(b),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[1,128,768]:fp32\n"
            "%split_heads = copy(%x[1,128,768]) bytes=393216 view -> %heads[1,128,12,64]:fp32 fp32 "
            "from onnx:Reshape\n"
            "%to_bhsd = copy(%heads[1,128,12,64]) bytes=393216 -> %t[1,12,128,64]:fp32 fp32 from "
            "onnx:Transpose {perm=[0,2,1,3]}\n"
            "output %t\n");
  EXPECT_FALSE(ir::find_tensor(b.graph, "target"));  // read only by the Reshape node
}

// The reference interpreter runs the lowered op from its node: what the dropped operands held
// stays there (here a Slice's bounds, as opset-1 attributes).
TEST(LowerOnnx, LoweredOpsKeepTheirNodeAndASlicesBounds) {
  OnnxGraphBuilder b;
  b.input("x", {4, 6}).ints("starts", {1}).ints("ends", {-1}).ints("axes", {1});
  b.node("Slice", {"x", "starts", "ends", "axes"}, {"y"}, {}, "cut");
  b.output("y");
  EXPECT_EQ(lowered(b),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[4,6]:fp32\n"
            "%cut = copy(%x[4,6]) bytes=64 -> %y[4,4]:fp32 fp32 from onnx:Slice {axes=[1] "
            "ends=[-1] starts=[1]}\n"
            "output %y\n");
  const ir::Op& op = only_op(b.graph);
  ASSERT_NE(op.lowered_from, nullptr);
  EXPECT_EQ(op.lowered_from->op_type, "Slice");
  EXPECT_EQ(passes::ints_attribute(*op.lowered_from, "starts"), std::vector<int64_t>{1});
  EXPECT_EQ(passes::ints_attribute(*op.lowered_from, "ends"), std::vector<int64_t>{-1});
  EXPECT_EQ(passes::ints_attribute(*op.lowered_from, "axes"), std::vector<int64_t>{1});
}

// Axes given only at run time stay an operand of the reduction, for the interpreter to read;
// constant axes are dropped with the node (which keeps them).
TEST(LowerOnnx, ReductionKeepsAxesGivenAtRunTime) {
  OnnxGraphBuilder b;
  b.input("x", {3, 2, 2}).input("runtime_axes", {1}, ir::DType::kInt64).ints("axes", {1});
  b.node("ReduceSum", {"x", "runtime_axes"}, {"y"}, AttributeMap{{"keepdims", int64_t{0}}}, "r");
  b.node("ReduceSum", {"x", "axes"}, {"z"}, AttributeMap{{"keepdims", int64_t{0}}}, "c");
  b.output("y").output("z");
  b.tensor("y").shape = {3, 2};
  const std::string text = lowered(b);
  EXPECT_THAT(text, HasSubstr("%r = reduce(%x[3,2,2], %runtime_axes[1])"));
  EXPECT_THAT(text, HasSubstr("%c = reduce(%x[3,2,2]) "));
}

// Dropout is a view; a training_mode operand that may be true stays an operand (with the
// ratio), so the interpreter can refuse a run that would draw a random mask.
TEST(LowerOnnx, DropoutKeepsATrainingModeThatMayBeTrue) {
  OnnxGraphBuilder b;
  b.input("x", {4}).input("ratio", {}).input("training", {}, ir::DType::kBool);
  b.node("Dropout", {"x", "ratio", "training"}, {"y"}, {}, "train");
  b.node("Dropout", {"y"}, {"z"}, {}, "infer");
  b.output("z");
  const std::string text = lowered(b);
  EXPECT_THAT(text, HasSubstr("%train = copy(%x[4], %ratio[], %training[]) bytes=16 view"));
  EXPECT_THAT(text, HasSubstr("%infer = copy(%y[4]) bytes=16 view"));
}

TEST(LowerOnnx, GatherFromAWeightTableIsAnEmbedding) {
  OnnxGraphBuilder b;
  b.weight("table", {30522, 768}).input("ids", {1, 128}, ir::DType::kInt64);
  b.node("Gather", {"table", "ids"}, {"embedded"}, {}, "word_embeddings");
  b.output("embedded");
  EXPECT_THAT(lowered(b),
              HasSubstr("embedding(%table[30522,768], %ids[1,128]) rows=128 cols=768 vocab=30522"));
}

TEST(LowerOnnx, NodesNeedShapesFirst) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y"}, {}, "act");
  b.output("y");
  EXPECT_THAT(testing::error_text([&] { LoweringPass().run(b.graph); }),
              HasSubstr("lowering needs shape inference first"));
}

TEST(LowerOnnx, AsymmetricPaddingThatChangesTheOutputIsAnError) {
  OnnxGraphBuilder b;
  b.input("x", {1, 3, 8, 8}).weight("w", {4, 3, 3, 3});
  b.node("Conv", {"x", "w"}, {"y"}, AttributeMap{{"pads", std::vector<int64_t>{0, 0, 2, 2}}},
         "odd");
  b.output("y");
  EXPECT_THAT(testing::error_text([&] { lowered(b); }),
              HasSubstr("not representable with symmetric padding"));
}

// SAME_UPPER over 5 with a window of 2 pads one at the end only: no symmetric padding gives 5
// outputs of that work, so each of the 1*2*5*5 outputs is a reduction of its 2*2 window.
TEST(LowerOnnx, PoolWithUnevenPaddingIsAReduceOfEachWindow) {
  OnnxGraphBuilder b;
  b.input("x", {1, 2, 5, 5});
  b.node("MaxPool", {"x"}, {"y"},
         AttributeMap{{"kernel_shape", std::vector<int64_t>{2, 2}},
                      {"auto_pad", std::string("SAME_UPPER")}},
         "pool");
  b.output("y");
  lowered(b);
  const auto& reduce = std::get<ir::ReduceAttrs>(only_op(b.graph).attrs);
  EXPECT_EQ(reduce.fn, "max");
  EXPECT_EQ(reduce.rows, 50);
  EXPECT_EQ(reduce.cols, 4);
}

// With one pad on each side, 3x3 windows at stride 1 over 4x4 give 4x4: the canonical Pool.
TEST(LowerOnnx, PoolWithEvenPaddingStaysAPool) {
  OnnxGraphBuilder b;
  b.input("x", {1, 1, 4, 4});
  b.node("AveragePool", {"x"}, {"y"},
         AttributeMap{{"kernel_shape", std::vector<int64_t>{3, 3}},
                      {"pads", std::vector<int64_t>{1, 1, 1, 1}}},
         "pool");
  b.output("y");
  lowered(b);
  const auto& pool = std::get<ir::PoolAttrs>(only_op(b.graph).attrs);
  EXPECT_EQ(pool.pad, 1);
  EXPECT_EQ(pool.kind, ir::PoolKind::kAvg);
}

}  // namespace
}  // namespace polyarch::lower
