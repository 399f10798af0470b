#include "compiler/ir/op.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

namespace polyarch::ir {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::error_text;
using ::testing::HasSubstr;

Op gemm_op(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  return {"g", GemmAttrs{m, n, k, batch}, std::nullopt, {}};
}

Op conv_op(Conv2dAttrs conv) { return {"c", conv, std::nullopt, {"w.yaml", 3, 5, "layers[2]"}}; }

Conv2dAttrs resnet_conv1() {
  Conv2dAttrs conv;
  conv.c = 3;
  conv.h = conv.w = 224;
  conv.k = 64;
  conv.r = conv.s = 7;
  conv.stride_h = conv.stride_w = 2;
  conv.pad_h = conv.pad_w = 3;
  return conv;
}

TEST(Op, KindNamesRoundTrip) {
  EXPECT_EQ(op_kind_name(OpKind::kGemm), "gemm");
  EXPECT_EQ(op_kind_name(OpKind::kConv2d), "conv2d");
  EXPECT_EQ(gemm_op(1, 1, 1).kind(), OpKind::kGemm);
  EXPECT_EQ(conv_op(resnet_conv1()).kind(), OpKind::kConv2d);
}

TEST(OpMacCount, GemmIsBatchTimesMTimesNTimesK) {
  EXPECT_EQ(mac_count(gemm_op(512, 2304, 768)), int64_t{512} * 2304 * 768);
  EXPECT_EQ(mac_count(gemm_op(512, 512, 64, 12)), int64_t{12} * 512 * 512 * 64);
}

TEST(OpMacCount, ConvCountsOutputPixelsTimesWindowTimesChannelsPerGroup) {
  // ResNet-50 conv1: 112*112 outputs * 64 filters * 7*7*3 window = 118,013,952 MACs.
  EXPECT_EQ(mac_count(conv_op(resnet_conv1())), 118013952);
  Conv2dAttrs depthwise;
  depthwise.c = depthwise.k = depthwise.groups = 32;
  depthwise.h = depthwise.w = 112;
  depthwise.r = depthwise.s = 3;
  depthwise.pad_h = depthwise.pad_w = 1;
  EXPECT_EQ(mac_count(conv_op(depthwise)), int64_t{112} * 112 * 32 * 9);
}

TEST(OpMacCount, OverflowIsReportedNotWrapped) {
  const int64_t huge = int64_t{1} << 32;
  EXPECT_THAT(error_text([&] { mac_count(gemm_op(huge, huge, huge)); }),
              HasSubstr("64-bit overflow"));
}

TEST(OpGemmView, GemmViewIsTheGemmRepeatedPerBatch) {
  const GemmView view = gemm_view(gemm_op(512, 512, 64, 12));
  EXPECT_EQ(view.m, 512);
  EXPECT_EQ(view.n, 512);
  EXPECT_EQ(view.k, 64);
  EXPECT_EQ(view.repeats, 12);
  EXPECT_EQ(view.ifmap_distinct_elements, 512 * 64);
}

TEST(OpGemmView, ConvBecomesIm2colWithStrideAndPadding) {
  const GemmView view = gemm_view(conv_op(resnet_conv1()));
  EXPECT_EQ(view.m, 112 * 112);
  EXPECT_EQ(view.k, 7 * 7 * 3);
  EXPECT_EQ(view.n, 64);
  EXPECT_EQ(view.repeats, 1);
  EXPECT_EQ(view.ifmap_distinct_elements, 3 * 224 * 224);
}

TEST(OpGemmView, GroupedConvIsOneGemmPerGroup) {
  Conv2dAttrs conv;
  conv.n = 2;
  conv.c = 64;
  conv.h = conv.w = 28;
  conv.k = 128;
  conv.r = conv.s = 3;
  conv.stride_h = conv.stride_w = 2;
  conv.pad_h = conv.pad_w = 1;
  conv.groups = 4;
  const GemmView view = gemm_view(conv_op(conv));
  EXPECT_EQ(view.m, 2 * 14 * 14);
  EXPECT_EQ(view.k, 3 * 3 * 16);
  EXPECT_EQ(view.n, 32);
  EXPECT_EQ(view.repeats, 4);
  EXPECT_EQ(view.ifmap_distinct_elements, 2 * 16 * 28 * 28);
  EXPECT_EQ(view.m * view.n * view.k * view.repeats, mac_count(conv_op(conv)));
}

TEST(OpValidate, AcceptsWellFormedOps) {
  EXPECT_NO_THROW(validate_op(gemm_op(1, 1, 1)));
  EXPECT_NO_THROW(validate_op(conv_op(resnet_conv1())));
}

TEST(OpValidate, RejectsNonPositiveSizesNamingOpAndField) {
  auto error = capture_error([] { validate_op(gemm_op(0, 4, 4)); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "op 'g': m must be positive, got 0");
  EXPECT_EQ(error->where().key_path, "g");
  Conv2dAttrs conv = resnet_conv1();
  conv.stride_w = -1;
  EXPECT_THAT(error_text([&] { validate_op(conv_op(conv)); }),
              HasSubstr("stride_w must be positive"));
}

TEST(OpValidate, RejectsChannelsNotDivisibleByGroupsAtTheOpLocation) {
  Conv2dAttrs conv = resnet_conv1();
  conv.groups = 2;
  auto error = capture_error([&] { validate_op(conv_op(conv)); });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("c=3 are not divisible by groups=2"));
  EXPECT_EQ(error->where().to_string(), "w.yaml:3:5: layers[2]");
}

TEST(OpValidate, RejectsFiltersNotDivisibleByGroups) {
  Conv2dAttrs conv = resnet_conv1();
  conv.c = 4;
  conv.k = 6;
  conv.groups = 4;
  EXPECT_THAT(error_text([&] { validate_op(conv_op(conv)); }),
              HasSubstr("k=6 are not divisible by groups=4"));
}

TEST(OpValidate, RejectsFilterLargerThanPaddedInput) {
  Conv2dAttrs conv = resnet_conv1();
  conv.h = conv.w = 4;
  conv.pad_h = conv.pad_w = 1;
  EXPECT_THAT(error_text([&] { validate_op(conv_op(conv)); }),
              HasSubstr("filter 7x7 is larger than the padded input 6x6"));
}

TEST(OpValidate, RejectsNegativePadding) {
  Conv2dAttrs conv = resnet_conv1();
  conv.pad_w = -1;
  EXPECT_THAT(error_text([&] { validate_op(conv_op(conv)); }), HasSubstr("must not be negative"));
}

Op onnx_op(const std::string& op_type, const std::string& domain = "") {
  OnnxNodeAttrs node;
  node.op_type = op_type;
  node.domain = domain;
  node.opset = 17;
  node.attributes["axis"] = int64_t{1};
  return {"n", node, std::nullopt, {"m.onnx", 0, 0, "graph.node[4] 'n' (Softmax)"}};
}

TEST(FrontendOp, IsAFrontendKindNamedAfterItsOnnxOpType) {
  EXPECT_EQ(onnx_op("Softmax").kind(), OpKind::kFrontend);
  EXPECT_EQ(op_kind_name(OpKind::kFrontend), "frontend");
  EXPECT_EQ(op_type_name(onnx_op("Softmax")), "onnx:Softmax");
  EXPECT_EQ(op_type_name(onnx_op("Attention", "com.microsoft")), "onnx:com.microsoft.Attention");
  EXPECT_EQ(op_type_name(gemm_op(1, 1, 1)), "gemm");
}

TEST(FrontendOp, CountsNoMacsAndValidates) {
  EXPECT_EQ(mac_count(onnx_op("MatMul")), 0);
  validate_op(onnx_op("MatMul"));
  EXPECT_THAT(error_text([] { validate_op(onnx_op("")); }), HasSubstr("empty op_type"));
}

TEST(FrontendOp, HasNoGemmViewBeforeLowering) {
  auto error = capture_error([] { gemm_view(onnx_op("MatMul")); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kRuntime);
  EXPECT_THAT(error->message(), HasSubstr("'n' (onnx:MatMul) has no GEMM view before lowering"));
}

}  // namespace
}  // namespace polyarch::ir
