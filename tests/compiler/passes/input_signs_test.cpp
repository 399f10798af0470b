// Input signs from what produces each op's input, through the standard pipeline (fusion first,
// so a ReLU fused into a convolution still makes the next op's input non-negative), and a layer
// list's own `signed_input`.
#include "compiler/passes/input_signs.h"

#include <gtest/gtest.h>

#include "compiler/frontend/layer_list.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/onnx_graph_builder.h"
#include "tests/support/ir_builders.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;

std::optional<bool> signed_input_of(const ir::Graph& graph, const std::string& name) {
  for (ir::NodeId id : graph.topological_ops()) {
    if (graph.op(id).name == name) return graph.op(id).signed_input;
  }
  ADD_FAILURE() << "no op " << name;
  return std::nullopt;
}

TEST(InputSigns, AReluPoolOrSigmoidBeforeAnOpMakesItsInputUnsignedAnythingElseSigned) {
  // x -> c1 -> Relu -> MaxPool -> c2 -> (+ pooled) -> c3 -> Sigmoid -> c4 -> Softmax -> c5
  OnnxGraphBuilder b;
  b.input("x", {1, 4, 8, 8});
  for (const char* w : {"w1", "w2", "w3", "w4", "w5"}) b.weight(w, {4, 4, 1, 1});
  b.node("Conv", {"x", "w1"}, {"a"}, {}, "c1");
  b.node("Relu", {"a"}, {"r"}, {}, "relu");
  b.node("MaxPool", {"r"}, {"p"},
         {{"kernel_shape", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}},
         "pool");
  b.node("Conv", {"p", "w2"}, {"b"}, {}, "c2");
  b.node("Add", {"b", "p"}, {"s"}, {}, "residual");
  b.node("Conv", {"s", "w3"}, {"c"}, {}, "c3");
  b.node("Sigmoid", {"c"}, {"g"}, {}, "gate");
  b.node("Conv", {"g", "w4"}, {"d"}, {}, "c4");
  b.node("Softmax", {"d"}, {"e"}, {{"axis", int64_t{1}}}, "softmax");
  b.node("Conv", {"e", "w5"}, {"y"}, {}, "c5");
  b.output("y");
  const auto records = lower::standard_pipeline().run(b.graph);
  ASSERT_EQ(records.back().pass, "input-signs");
  EXPECT_EQ(signed_input_of(b.graph, "c1"), true);   // the model's input
  EXPECT_EQ(signed_input_of(b.graph, "c2"), false);  // max-pool of a fused ReLU
  EXPECT_EQ(signed_input_of(b.graph, "c3"), true);   // a convolution's output plus a pool's
  EXPECT_EQ(signed_input_of(b.graph, "c4"), false);  // a sigmoid (fused into c3 or not)
  EXPECT_EQ(signed_input_of(b.graph, "c5"), false);  // a softmax
}

TEST(InputSigns, AClipWithANonNegativeMinimumMakesTheInputUnsigned) {
  ir::Graph graph("clip");
  const ir::NodeId x = graph.add_tensor({"x", {8, 16}, ir::DType::kFp32});
  ir::Op relu6 = test_support::make_op("fc1", ir::GemmAttrs{.m = 8, .n = 16, .k = 16});
  std::get<ir::GemmAttrs>(relu6.attrs).activation =
      ir::Activation{.fn = "clip", .params = {{"min", 0.0}, {"max", 6.0}}};
  const ir::NodeId first = graph.add_op(relu6);
  const ir::NodeId hidden = graph.add_tensor({"h", {8, 16}, ir::DType::kFp32});
  const ir::NodeId second =
      graph.add_op(test_support::make_op("fc2", ir::GemmAttrs{.m = 8, .n = 16, .k = 16}));
  const ir::NodeId y = graph.add_tensor({"y", {8, 16}, ir::DType::kFp32});
  graph.connect(x, first);
  graph.connect(first, hidden);
  graph.connect(hidden, second);
  graph.connect(second, y);
  const PassStatistics statistics = mark_signed_inputs(graph);
  EXPECT_EQ(signed_input_of(graph, "fc1"), true);
  EXPECT_EQ(signed_input_of(graph, "fc2"), false);
  EXPECT_EQ(statistics.get("signed"), 1);
  EXPECT_EQ(statistics.get("unsigned"), 1);
}

TEST(InputSigns, ALayerListSaysItselfAndThePassKeepsWhatItSays) {
  const ir::Graph graph = frontend::layer_list_from_config(
      parse_config_text(
          "layers:\n"
          "  - {name: conv, op: conv2d, c: 16, h: 8, w: 8, k: 16, r: 3, s: 3}\n"
          "  - {name: post_relu, op: conv2d, c: 16, h: 8, w: 8, k: 16, r: 3, s: 3,"
          " signed_input: false}\n"
          "  - {name: proj, op: gemm, m: 8, n: 64, k: 64, signed_input: true}\n",
          "layers.yaml"),
      "layers");
  EXPECT_EQ(signed_input_of(graph, "conv"), std::nullopt);  // units take it as non-negative
  EXPECT_EQ(signed_input_of(graph, "post_relu"), false);
  EXPECT_EQ(signed_input_of(graph, "proj"), true);
  ir::Graph marked = graph;
  mark_signed_inputs(marked);
  EXPECT_EQ(signed_input_of(marked, "conv"), true);  // a model input nobody described
  EXPECT_EQ(signed_input_of(marked, "post_relu"), false);
  EXPECT_EQ(signed_input_of(marked, "proj"), true);
}

}  // namespace
}  // namespace polyarch::passes
