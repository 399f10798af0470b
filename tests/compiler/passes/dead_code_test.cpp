// Dead-code elimination before/after.
#include "compiler/passes/dead_code.h"

#include <gtest/gtest.h>

#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using testing::OnnxGraphBuilder;

TEST(DeadCodeElimination, DropsOpsAndTensorsNoOutputNeeds) {
  OnnxGraphBuilder b;
  b.input("x", {2}).input("unused_input", {2}).weight("unused_weight", {3}).ints("orphan", {1});
  b.node("Relu", {"x"}, {"y"}, {}, "live");
  b.node("Neg", {"x"}, {"n"}, {}, "dead");
  b.node("Abs", {"n"}, {"m"}, {}, "dead_too");
  b.output("y");
  EXPECT_EQ(ir::print_graph(b.graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[2]:fp32\n"
            "input %unused_input[2]:fp32\n"
            "weight %unused_weight[3]:fp32 external\n"
            "weight %orphan[1]:int64 {1}\n"
            "%live = onnx:Relu(%x[2]) -> %y[?]:? native\n"
            "%dead = onnx:Neg(%x[2]) -> %n[?]:? native\n"
            "%dead_too = onnx:Abs(%n[?]) -> %m[?]:? native\n"
            "output %y\n");
  const PassStatistics statistics = DeadCodeEliminationPass().run(b.graph);
  EXPECT_EQ(ir::print_graph(b.graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[2]:fp32\n"
            "input %unused_input[2]:fp32\n"
            "%live = onnx:Relu(%x[2]) -> %y[?]:? native\n"
            "output %y\n");
  EXPECT_EQ(statistics.get("ops erased"), 2);
  // n, m, the unused weight and the orphan constant; graph inputs stay.
  EXPECT_EQ(statistics.get("tensors erased"), 4);
  EXPECT_TRUE(ir::find_tensor(b.graph, "unused_input"));
}

TEST(DeadCodeElimination, KeepsEveryResultOfALiveOp) {
  OnnxGraphBuilder b;
  b.input("x", {6});
  b.node("Split", {"x"}, {"a", "b"}, {}, "split");
  b.output("a");
  EXPECT_EQ(DeadCodeEliminationPass().run(b.graph).get("tensors erased"), 0);
  EXPECT_TRUE(ir::find_tensor(b.graph, "b"));
}

TEST(DeadCodeElimination, NothingToDoLeavesTheGraphAlone) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y"});
  b.output("y");
  const std::string before = ir::print_graph(b.graph);
  const PassStatistics statistics = DeadCodeEliminationPass().run(b.graph);
  EXPECT_EQ(statistics.get("ops erased"), 0);
  EXPECT_EQ(ir::print_graph(b.graph), before);
}

}  // namespace
}  // namespace polyarch::passes
