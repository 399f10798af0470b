#include "compiler/ir/graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

namespace polyarch::ir {
namespace {

using polyarch::testing::capture_error;
using ::testing::HasSubstr;

Op gemm(const std::string& name, int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  return {name, GemmAttrs{m, n, k, batch}, DType::kInt8, {}};
}

// a -> op1 -> t1 -> op2 -> t2, plus an independent op0 inserted first.
struct Chain {
  Graph graph{"chain"};
  NodeId op0, op1, op2, t1, t2;
  Chain() {
    const NodeId x = graph.add_tensor({"x", {1, 4, 8}, DType::kInt8, TensorRole::kActivation});
    const NodeId w = graph.add_tensor({"w", {8, 8}, DType::kInt8, TensorRole::kWeight});
    op2 = graph.add_op(gemm("second", 4, 8, 8));
    op1 = graph.add_op(gemm("first", 4, 8, 8));
    t1 = graph.add_tensor({"t1", {}, DType::kInt8, TensorRole::kActivation});
    t2 = graph.add_tensor({"t2", {}, DType::kInt8, TensorRole::kOutput});
    graph.connect(x, op1);
    graph.connect(w, op1);
    graph.connect(op1, t1);
    graph.connect(t1, op2);
    graph.connect(w, op2);
    graph.connect(op2, t2);
  }
};

TEST(Graph, TopologicalOrderFollowsDataNotInsertion) {
  Chain chain;
  EXPECT_EQ(chain.graph.topological_ops(), (std::vector<NodeId>{chain.op1, chain.op2}));
  EXPECT_EQ(chain.graph.op_count(), 2u);
  EXPECT_EQ(chain.graph.node_count(), 6u);
}

TEST(Graph, IndependentOpsKeepInsertionOrder) {
  Graph graph;
  std::vector<NodeId> ops;
  for (const char* name : {"c", "a", "b"}) ops.push_back(graph.add_op(gemm(name, 1, 1, 1)));
  EXPECT_EQ(graph.topological_ops(), ops);
}

TEST(Graph, InputsAndOutputsAreInConnectionOrder) {
  Chain chain;
  const auto inputs = chain.graph.inputs_of(chain.op2);
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(chain.graph.tensor(inputs[0]).name, "t1");
  EXPECT_EQ(chain.graph.tensor(inputs[1]).name, "w");
  EXPECT_EQ(chain.graph.outputs_of(chain.op2), (std::vector<NodeId>{chain.t2}));
}

TEST(Graph, CycleIsABadInputErrorNamingAnOpOnIt) {
  Chain chain;
  const NodeId loop_op = chain.graph.add_op(gemm("loop", 4, 8, 8));
  chain.graph.connect(chain.t2, loop_op);
  chain.graph.connect(loop_op, chain.t1);
  auto error = capture_error([&] { chain.graph.topological_ops(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_THAT(error->message(), HasSubstr("cycle through op 'second'"));
}

TEST(Graph, ConnectRejectsTensorToTensorAndOpToOp) {
  Chain chain;
  EXPECT_THROW(chain.graph.connect(chain.t1, chain.t2), Error);
  EXPECT_THROW(chain.graph.connect(chain.op1, chain.op2), Error);
}

TEST(Graph, AccessorsRejectTheWrongNodeKind) {
  Chain chain;
  EXPECT_TRUE(chain.graph.is_op(chain.op1));
  EXPECT_FALSE(chain.graph.is_op(chain.t1));
  EXPECT_THROW(chain.graph.op(chain.t1), Error);
  EXPECT_THROW(chain.graph.tensor(chain.op1), Error);
}

TEST(GraphInferShapes, GemmOutputIsBatchByMByN) {
  Chain chain;
  infer_shapes(chain.graph);
  EXPECT_EQ(chain.graph.tensor(chain.t1).shape, (std::vector<int64_t>{1, 4, 8}));
  EXPECT_EQ(chain.graph.tensor(chain.t2).shape, (std::vector<int64_t>{1, 4, 8}));
}

TEST(GraphInferShapes, ConvOutputIsNByKByOutHByOutW) {
  Graph graph;
  Conv2dAttrs conv;
  conv.n = 2;
  conv.c = 3;
  conv.h = conv.w = 224;
  conv.k = 64;
  conv.r = conv.s = 7;
  conv.stride_h = conv.stride_w = 2;
  conv.pad_h = conv.pad_w = 3;
  const NodeId op = graph.add_op({"conv1", conv, std::nullopt, {}});
  const NodeId out = graph.add_tensor({"out", {}, DType::kInt8, TensorRole::kOutput});
  graph.connect(op, out);
  infer_shapes(graph);
  EXPECT_EQ(graph.tensor(out).shape, (std::vector<int64_t>{2, 64, 112, 112}));
}

TEST(GraphInferShapes, MismatchedInputShapeNamesOpAndTensor) {
  Graph graph;
  const NodeId x = graph.add_tensor({"x", {1, 4, 9}, DType::kInt8, TensorRole::kActivation});
  Op op = gemm("proj", 4, 8, 8);
  op.where = {"w.yaml", 7, 5, "layers[1]"};
  const NodeId id = graph.add_op(op);
  graph.connect(x, id);
  auto error = capture_error([&] { infer_shapes(graph); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "op 'proj': input 'x' has shape [1,4,9], expected [1,4,8]");
  EXPECT_EQ(error->where().line, 7);
}

TEST(GraphInferShapes, InvalidAttributesAreRejected) {
  Graph graph;
  graph.add_op(gemm("bad", 4, 0, 8));
  EXPECT_THROW(infer_shapes(graph), Error);
}

TEST(GraphPrint, GoldenText) {
  Graph graph("golden");
  Conv2dAttrs conv;
  conv.c = 3;
  conv.h = conv.w = 224;
  conv.k = 64;
  conv.r = conv.s = 7;
  conv.stride_h = conv.stride_w = 2;
  conv.pad_h = conv.pad_w = 3;
  const NodeId in =
      graph.add_tensor({"conv1.in", {1, 3, 224, 224}, DType::kInt8, TensorRole::kActivation});
  const NodeId w = graph.add_tensor({"conv1.w", {64, 3, 7, 7}, DType::kInt8, TensorRole::kWeight});
  const NodeId op = graph.add_op({"conv1", conv, DType::kInt8, {}});
  const NodeId out = graph.add_tensor({"conv1.out", {}, DType::kInt8, TensorRole::kOutput});
  graph.connect(in, op);
  graph.connect(w, op);
  graph.connect(op, out);
  const NodeId a = graph.add_tensor({"fc.in", {1, 1, 2048}, DType::kFp16, TensorRole::kActivation});
  const NodeId fc = graph.add_op({"fc", GemmAttrs{1, 1000, 2048, 1}, std::nullopt, {}});
  const NodeId fc_out = graph.add_tensor({"fc.out", {}, DType::kFp16, TensorRole::kOutput});
  graph.connect(a, fc);
  graph.connect(fc, fc_out);
  infer_shapes(graph);
  EXPECT_EQ(
      print_graph(graph),
      "graph \"golden\"\n"
      "input %conv1.in[1,3,224,224]:int8\n"
      "weight %conv1.w[64,3,7,7]:int8\n"
      "input %fc.in[1,1,2048]:fp16\n"
      "%conv1 = conv2d(%conv1.in[1,3,224,224], %conv1.w[64,3,7,7]) n=1 c=3 h=224 w=224 k=64 "
      "window=7x7 stride=2x2 pad=3x3 groups=1 -> %conv1.out[1,64,112,112]:int8 int8\n"
      "%fc = gemm(%fc.in[1,1,2048]) m=1 n=1000 k=2048 batch=1 -> %fc.out[1,1,1000]:fp16 native\n"
      "output %conv1.out, %fc.out\n");
}

}  // namespace
}  // namespace polyarch::ir
