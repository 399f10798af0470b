// Recurrent layers expanded into their time steps' primitives, then lowered and run.
#include "compiler/lower/recurrent_expansion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/interp/interpreter.h"
#include "compiler/lower/pipeline.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::lower {
namespace {

using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;
using AttributeMap = std::map<std::string, ir::AttributeValue>;

// One hidden unit, W = 2, R = 3, no bias, X = [1, 0.5]: h1 = tanh(2), h2 = tanh(1 + 3 h1).
TEST(RecurrentExpansion, RnnStepsAreTheDefinitionsRecurrence) {
  OnnxGraphBuilder b;
  b.input("x", {2, 1, 1}).input("w", {1, 1, 1}).input("r", {1, 1, 1});
  b.node("RNN", {"x", "w", "r"}, {"y", "y_h"}, AttributeMap{{"hidden_size", int64_t{1}}}, "rnn");
  b.output("y").output("y_h");
  standard_pipeline().run(b.graph);
  const std::vector<interp::NamedTensor> outputs =
      interp::run_graph(b.graph, {{"x", interp::DenseTensor{{2, 1, 1}, {1, 0.5f}}},
                                  {"w", interp::DenseTensor{{1, 1, 1}, {2}}},
                                  {"r", interp::DenseTensor{{1, 1, 1}, {3}}}});
  const double h1 = std::tanh(2.0);
  const double h2 = std::tanh(1.0 + 3.0 * h1);
  ASSERT_EQ(outputs.at(0).tensor.shape, (std::vector<int64_t>{2, 1, 1, 1}));
  EXPECT_NEAR(outputs[0].tensor.values[0], h1, 1e-6);
  EXPECT_NEAR(outputs[0].tensor.values[1], h2, 1e-6);
  EXPECT_NEAR(outputs.at(1).tensor.values.at(0), h2, 1e-6);
}

// An LSTM of 3 steps, batch 2, input 4, hidden 5: each step multiplies x_t [2, 4] by W^T
// [4, 20] (160 MACs) and h [2, 5] by R^T [5, 20] (200 MACs): 3 * 360 = 1080 in all.
TEST(RecurrentExpansion, LstmCostsItsGateProductsPerStep) {
  OnnxGraphBuilder b;
  b.input("x", {3, 2, 4}).input("w", {1, 20, 4}).input("r", {1, 20, 5});
  b.node("LSTM", {"x", "w", "r"}, {"y"}, AttributeMap{{"hidden_size", int64_t{5}}}, "lstm");
  b.output("y");
  standard_pipeline().run(b.graph);
  int64_t macs = 0;
  for (ir::NodeId op : b.graph.topological_ops()) macs += ir::mac_count(b.graph.op(op));
  EXPECT_EQ(macs, 1080);
}

TEST(RecurrentExpansion, ActivationsOtherThanTheDefaultsAreRefusedByName) {
  OnnxGraphBuilder b;
  b.input("x", {1, 1, 1}).input("w", {1, 1, 1}).input("r", {1, 1, 1});
  b.node(
      "RNN", {"x", "w", "r"}, {"y"},
      AttributeMap{{"hidden_size", int64_t{1}}, {"activations", std::vector<std::string>{"Relu"}}},
      "rnn");
  b.output("y");
  EXPECT_THAT(testing::error_text([&] { standard_pipeline().run(b.graph); }),
              HasSubstr("RNN with activation Relu is not supported"));
}

}  // namespace
}  // namespace polyarch::lower
