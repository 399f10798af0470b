// The ResNet builder against the lowered resnet50.onnx export and the published sizes.
#include "compiler/frontend/model_builder/resnet_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/op_table.h"
#include "compiler/passes/fuse_bias_activation.h"
#include "tests/compiler/model_builder/model_test_support.h"

namespace polyarch::frontend {
namespace {

using testing::attrs_of;
using testing::built_model;

// The check, and here it holds op for op: the export's BatchNorms are folded into its
// Convs (as the builder's are), and the pipeline fuses each ReLU that reads only a convolution
// into it (applied to the builder's graph here too), so both graphs have the same 53
// convolutions with bias (33 with a fused ReLU), 16 ReLUs after the residual adds, 16 adds,
// max and global pools, Flatten view and fc GEMM, with equal attributes, dtypes and therefore
// MACs, FLOPs, bytes and parameters. Only names differ.
TEST(ResnetBuilder, Resnet50IsOpForOpTheLoweredOnnxExport) {
  ir::Graph built = testing::built_model_file("workloads/models/resnet50.yaml", ir::DType::kFp32);
  passes::FuseBiasActivationPass().run(built);
  const ir::Graph onnx = testing::compiled_onnx("resnet50.onnx");
  EXPECT_EQ(testing::op_signatures(built), testing::op_signatures(onnx));
  const lower::GraphTotals built_totals = lower::graph_totals(built);
  const lower::GraphTotals onnx_totals = lower::graph_totals(onnx);
  EXPECT_EQ(built_totals.ops, 122 - 33);
  EXPECT_EQ(built_totals.macs, 4089184256);  // 4.089 GMACs
  EXPECT_EQ(built_totals.macs, onnx_totals.macs);
  EXPECT_EQ(built_totals.flops, onnx_totals.flops);
  EXPECT_EQ(built_totals.bytes, onnx_totals.bytes);
  EXPECT_EQ(built_totals.parameters, onnx_totals.parameters);
}

TEST(ResnetBuilder, BottleneckPutsTheStrideOnTheThreeByThreeConvolution) {
  const ir::Graph graph = built_model("model: {family: resnet, depth: 50}");
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "layer2.0.conv1").stride_h, 1);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "layer2.0.conv2").stride_h, 2);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "layer2.0.downsample").stride_h, 2);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "layer4.2.conv3").k, 2048);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(graph, "fc").k, 2048);
}

// torchvision's published GFLOPS (multiply-adds) at 224: ResNet-18 1.81, ResNet-34 3.66; the
// basic blocks' first stage keeps 64 channels, so it needs no downsample convolution.
TEST(ResnetBuilder, BasicBlockDepthsMatchPublishedMacs) {
  const ir::Graph resnet18 = built_model("model: {family: resnet, depth: 18}");
  const ir::Graph resnet34 = built_model("model: {family: resnet, depth: 34, batch: 2}");
  EXPECT_NEAR(static_cast<double>(lower::graph_totals(resnet18).macs), 1.81e9, 0.01e9);
  EXPECT_NEAR(static_cast<double>(lower::graph_totals(resnet34).macs), 2 * 3.66e9, 0.02e9);
  EXPECT_THROW(testing::op_named(resnet18, "layer1.0.downsample"), std::runtime_error);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(resnet18, "layer2.0.downsample").k, 128);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(resnet34, "conv1").n, 2);
}

TEST(ResnetBuilder, ImageSizeAndClassesReachTheLastLayers) {
  const ir::Graph graph =
      built_model("model: {family: resnet, depth: 50, image: 320, classes: 10}");
  const auto& avgpool = attrs_of<ir::PoolAttrs>(graph, "avgpool");
  EXPECT_EQ(avgpool.h, 10);  // 320 / 32
  EXPECT_EQ(avgpool.kind, ir::PoolKind::kGlobal);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(graph, "fc").n, 10);
}

}  // namespace
}  // namespace polyarch::frontend
