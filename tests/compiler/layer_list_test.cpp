#include "compiler/frontend/layer_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/compiler/error_capture.h"

namespace polyarch::frontend {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::source_path;
using ::testing::HasSubstr;

ir::Graph from_text(const std::string& text) {
  return layer_list_from_config(parse_config_text(text, "w.yaml"), "fallback");
}

// The error a one-layer list with these extra keys produces.
std::optional<Error> layer_error(const std::string& layer_map) {
  return capture_error([&] { from_text("layers:\n  - " + layer_map + "\n"); });
}

const ir::Op& op_named(const ir::Graph& graph, const std::string& name) {
  for (ir::NodeId id : graph.topological_ops()) {
    if (graph.op(id).name == name) return graph.op(id);
  }
  throw std::runtime_error("no op " + name);
}

TEST(LayerList, LoadsConvAndGemmLayersWithShapes) {
  const ir::Graph graph = load_layer_list(source_path("tests/data/layer_list/small_net.yaml"));
  EXPECT_EQ(graph.name(), "small_net");
  ASSERT_EQ(graph.op_count(), 3u);
  EXPECT_EQ(print_graph(graph),
            "%stem = conv2d(%stem.in[1,3,32,32], %stem.w[16,3,3,3]) stride=2x2 pad=1x1 groups=1 "
            "-> [1,16,16,16] native\n"
            "%head = gemm(%head.in[2,16,256], %head.w[2,256,10]) m=16 n=10 k=256 batch=2 -> "
            "[2,16,10] fp16\n"
            "%layer2 = conv2d(%layer2.in[1,16,8,6], %layer2.w[16,1,3,1]) stride=1x2 pad=1x0 "
            "groups=16 -> [1,16,8,3] native\n");
}

TEST(LayerList, OpsRememberTheirLayerLocation) {
  const ir::Graph graph = load_layer_list(source_path("tests/data/layer_list/small_net.yaml"));
  const ir::Op& head = op_named(graph, "head");
  EXPECT_THAT(head.where.file, HasSubstr("small_net.yaml"));
  EXPECT_EQ(head.where.line, 15);
  EXPECT_EQ(head.where.key_path, "layers[1]");
  EXPECT_EQ(head.dtype, ir::DType::kFp16);
}

TEST(LayerList, GraphNameDefaultsToTheGivenName) {
  EXPECT_EQ(from_text("layers: [{op: gemm, m: 1, n: 1, k: 1}]").name(), "fallback");
}

TEST(LayerList, LayersReadSeparateTensorsSoOrderIsFileOrder) {
  const ir::Graph graph = from_text(
      "layers: [{name: b, op: gemm, m: 1, n: 1, k: 1}, {name: a, op: gemm, m: 2, n: 2, k: 2}]");
  const auto ops = graph.topological_ops();
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(graph.op(ops[0]).name, "b");
  EXPECT_EQ(graph.op(ops[1]).name, "a");
  EXPECT_EQ(graph.inputs_of(ops[0]).size(), 2u);
}

TEST(LayerList, UnknownKeySuggestsNearestSpellingWithKeyPath) {
  auto error = capture_error([] {
    from_text(
        "layers:\n  - {name: a, op: gemm, m: 1, n: 1, k: 1}\n"
        "  - {name: b, op: conv2d, c: 3, h: 8, w: 8, k: 4, r: 3, s: 3, stirde: 2}\n");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "unknown key 'stirde'; did you mean 'stride'?");
  EXPECT_EQ(error->where().to_string(), "w.yaml:3:71: layers[1].stirde");
}

TEST(LayerList, WrongTypeNamesValueAndKeyPath) {
  auto error = layer_error("{op: gemm, m: 4, n: many, k: 1}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "expected an integer, got 'many'");
  EXPECT_EQ(error->where().key_path, "layers[0].n");
  EXPECT_EQ(error->where().line, 2);
}

TEST(LayerList, ZeroAndNegativeSizesAreRejected) {
  auto zero = layer_error("{op: gemm, m: 4, n: 4, k: 0}");
  ASSERT_TRUE(zero);
  EXPECT_THAT(zero->message(), HasSubstr("value 0 is out of range [1,"));
  EXPECT_EQ(zero->where().key_path, "layers[0].k");
  auto negative = layer_error("{op: conv2d, c: 3, h: -8, w: 8, k: 4, r: 3, s: 3}");
  ASSERT_TRUE(negative);
  EXPECT_EQ(negative->where().key_path, "layers[0].h");
  auto negative_pad = layer_error("{op: conv2d, c: 3, h: 8, w: 8, k: 4, r: 3, s: 3, pad: -1}");
  ASSERT_TRUE(negative_pad);
  EXPECT_EQ(negative_pad->where().key_path, "layers[0].pad");
}

TEST(LayerList, MissingRequiredKeyIsNamed) {
  auto error = layer_error("{name: c, op: conv2d, c: 3, h: 8, w: 8, r: 3, s: 3}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "missing required key 'k'");
  EXPECT_EQ(error->where().key_path, "layers[0]");
  auto no_op = layer_error("{name: c, m: 1}");
  ASSERT_TRUE(no_op);
  EXPECT_EQ(no_op->message(), "missing required key 'op'");
}

TEST(LayerList, FilterBiggerThanPaddedInputIsRejectedAtTheFilterKey) {
  auto error = layer_error("{op: conv2d, c: 3, h: 4, w: 8, k: 4, r: 7, s: 3, pad: 1}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "filter height r=7 is larger than the padded input height 6");
  EXPECT_EQ(error->where().key_path, "layers[0].r");
  auto wide = layer_error("{op: conv2d, c: 3, h: 8, w: 2, k: 4, r: 3, s: 3}");
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->where().key_path, "layers[0].s");
}

TEST(LayerList, ChannelsNotDivisibleByGroupsIsRejectedAtGroups) {
  auto error = layer_error("{op: conv2d, c: 6, h: 8, w: 8, k: 8, r: 3, s: 3, groups: 4}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "channels c=6 are not divisible by groups=4");
  EXPECT_EQ(error->where().key_path, "layers[0].groups");
  auto filters = layer_error("{op: conv2d, c: 8, h: 8, w: 8, k: 6, r: 3, s: 3, groups: 4}");
  ASSERT_TRUE(filters);
  EXPECT_THAT(filters->message(), HasSubstr("filters k=6"));
}

TEST(LayerList, StrideAndStrideHTogetherAreAmbiguous) {
  auto error =
      layer_error("{op: conv2d, c: 3, h: 8, w: 8, k: 4, r: 3, s: 3, stride: 2, stride_w: 1}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("either 'stride' or 'stride_h'/'stride_w'"));
  EXPECT_EQ(error->where().key_path, "layers[0].stride_w");
}

TEST(LayerList, PlannedButUnsupportedOpIsNamed) {
  auto error = layer_error("{name: attn, op: attention, b: 1, h: 12, s: 512, d: 64}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("op 'attention' is not supported yet"));
  EXPECT_EQ(error->where().key_path, "layers[0].op");
}

TEST(LayerList, MisspelledOpSuggestsTheSupportedOne) {
  auto error = layer_error("{op: gemn, m: 1, n: 1, k: 1}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("did you mean 'gemm'?"));
}

TEST(LayerList, UnknownDtypeListsTheAllowedOnes) {
  auto error = layer_error("{op: gemm, m: 1, n: 1, k: 1, dtype: float8}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("allowed: int8, int16, int32, fp16, bf16, fp32"));
  EXPECT_EQ(error->where().key_path, "layers[0].dtype");
}

TEST(LayerList, DuplicateLayerNamesAreRejectedAtTheSecond) {
  auto error = capture_error([] {
    from_text(
        "layers:\n  - {name: a, op: gemm, m: 1, n: 1, k: 1}\n"
        "  - {name: a, op: gemm, m: 2, n: 2, k: 2}\n");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "duplicate layer name 'a'");
  EXPECT_EQ(error->where().key_path, "layers[1].name");
  EXPECT_EQ(error->where().line, 3);
}

TEST(LayerList, EmptyListIsRejected) {
  auto error = capture_error([] { from_text("layers: []\n"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "the layer list is empty");
  EXPECT_EQ(error->where().key_path, "layers");
}

TEST(LayerList, MissingLayersAndUnknownTopLevelKeysAreRejected) {
  auto missing = capture_error([] { from_text("name: x\n"); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->message(), "missing required key 'layers'");
  auto unknown =
      capture_error([] { from_text("layer: []\nlayers: [{op: gemm, m: 1, n: 1, k: 1}]\n"); });
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->message(), "unknown key 'layer'; did you mean 'layers'?");
}

TEST(LayerList, LayerThatIsNotAMapIsRejected) {
  auto error = capture_error([] { from_text("layers: [gemm]\n"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().key_path, "layers[0]");
  EXPECT_THAT(error->message(), HasSubstr("expected a map"));
}

}  // namespace
}  // namespace polyarch::frontend

namespace polyarch::frontend {
namespace {

TEST(LayerList, SizesWhoseCountsOverflowNameTheLayer) {
  auto error = capture_error([&] {
    from_text("layers:\n  - {name: big, op: gemm, m: 1000000000000, n: 1000000000000, "
              "k: 1000000000000}\n");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_EQ(error->where().line, 2);
  EXPECT_THAT(error->message(), ::testing::HasSubstr("op 'big'"));
  EXPECT_THAT(error->message(), ::testing::HasSubstr("overflow"));
}

}  // namespace
}  // namespace polyarch::frontend
