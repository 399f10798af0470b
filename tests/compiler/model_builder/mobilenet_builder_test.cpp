// The MobileNetV2 builder against torchvision's published sizes.
#include "compiler/frontend/model_builder/mobilenet_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/op_table.h"
#include "tests/compiler/model_builder/model_test_support.h"

namespace polyarch::frontend {
namespace {

using testing::attrs_of;
using testing::built_model;

TEST(MobilenetBuilder, MakeDivisibleRoundsLikeTorchvision) {
  EXPECT_EQ(make_divisible(32.0, 8), 32);
  EXPECT_EQ(make_divisible(16 * 0.75, 8), 16);  // 12 rounds half up to 16
  EXPECT_EQ(make_divisible(24 * 0.35, 8), 8);   // never below the divisor
  EXPECT_EQ(make_divisible(10.0, 8), 16);       // 8 would lose more than 10%
}

// torchvision: 0.30 GFLOPS (multiply-adds) and 3,504,872 parameters. Folding each batch norm
// into its convolution keeps one of its two per-channel parameters (the shift, as the bias).
TEST(MobilenetBuilder, WidthOneMatchesPublishedMacsAndParameters) {
  const ir::Graph graph = built_model("model: {family: mobilenet_v2}");
  const lower::GraphTotals totals = lower::graph_totals(graph);
  EXPECT_EQ(totals.macs, 300774272);
  int64_t batch_norm_channels = 0;
  for (ir::NodeId id : graph.topological_ops()) {
    if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&graph.op(id).attrs)) {
      batch_norm_channels += conv->k;
    }
  }
  EXPECT_EQ(totals.parameters, 3504872 - batch_norm_channels);
}

TEST(MobilenetBuilder, InvertedResidualExpandsDepthwiseProjectsAndAddsWhereShapesAllow) {
  const ir::Graph graph = built_model("model: {family: mobilenet_v2}");
  EXPECT_THROW(testing::op_named(graph, "features.1.expand"), std::runtime_error);  // t = 1
  const auto& depthwise = attrs_of<ir::Conv2dAttrs>(graph, "features.2.depthwise");
  EXPECT_EQ(depthwise.groups, 96);  // 16 channels expanded 6x
  EXPECT_EQ(depthwise.stride_h, 2);
  EXPECT_EQ(attrs_of<ir::ElementwiseAttrs>(graph, "features.2.depthwise_relu6").fn, "clip");
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "features.2.project").k, 24);
  EXPECT_THROW(testing::op_named(graph, "features.2.add"), std::runtime_error);
  EXPECT_EQ(attrs_of<ir::ElementwiseAttrs>(graph, "features.3.add").inputs, 2);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "features.18.conv").k, 1280);
}

TEST(MobilenetBuilder, WidthScalesChannelsButNotTheLastBelowOne) {
  const ir::Graph graph = built_model("model: {family: mobilenet_v2, width: 0.5}");
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "features.0.conv").k, 16);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "features.17.project").k, 160);
  EXPECT_EQ(attrs_of<ir::Conv2dAttrs>(graph, "features.18.conv").k, 1280);
}

}  // namespace
}  // namespace polyarch::frontend
