// The VGG-16 builder against torchvision's published sizes.
#include "compiler/frontend/model_builder/vgg_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/op_table.h"
#include "tests/compiler/model_builder/model_test_support.h"

namespace polyarch::frontend {
namespace {

using testing::attrs_of;
using testing::built_model;

// torchvision vgg16: 15.47 GFLOPS (multiply-adds) and 138,357,544 parameters; without batch
// norm nothing is folded, so the parameter count is exact.
TEST(VggBuilder, Vgg16MatchesPublishedMacsAndParameters) {
  const ir::Graph graph = built_model("model: {family: vgg16}");
  const lower::GraphTotals totals = lower::graph_totals(graph);
  EXPECT_EQ(totals.parameters, 138357544);
  EXPECT_NEAR(static_cast<double>(totals.macs), 15.47e9, 0.005e9);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(graph, "classifier.0").k, 512 * 7 * 7);
  EXPECT_EQ(attrs_of<ir::ElementwiseAttrs>(graph, "features.29").fn, "relu");
  EXPECT_EQ(attrs_of<ir::PoolAttrs>(graph, "features.30").out_h(), 7);
  EXPECT_THROW(testing::op_named(graph, "avgpool"), std::runtime_error);  // 7x7 already
}

TEST(VggBuilder, LargerImagesPoolToTheClassifiersSevenBySeven) {
  const ir::Graph graph = built_model("model: {family: vgg16, image: 448, classes: 10}");
  const auto& avgpool = attrs_of<ir::PoolAttrs>(graph, "avgpool");
  EXPECT_EQ(avgpool.r, 2);
  EXPECT_EQ(avgpool.out_h(), 7);
  EXPECT_EQ(attrs_of<ir::GemmAttrs>(graph, "classifier.6").n, 10);
}

}  // namespace
}  // namespace polyarch::frontend
