#include "mapping/program/program.h"

#include <gtest/gtest.h>

#include "tests/support/ir_builders.h"

#include <string>
#include <utility>

#include "base/error.h"

namespace polyarch::mapping {
namespace {

using polyarch::test_support::make_op;
using polyarch::test_support::make_tensor;

bool is_gemm(const ir::Op& op) { return op.kind() == ir::OpKind::kGemm; }
bool is_anything(const ir::Op&) { return true; }

// input -> gemm a -> conv b -> gemm c, and gemm c also reads a's output (a skip connection).
struct Diamond {
  ir::Graph graph{"diamond"};
  ir::NodeId a, b, c;
  Diamond() {
    const ir::NodeId input = graph.add_tensor(make_tensor("input"));
    a = graph.add_op(make_op("a", ir::GemmAttrs{.m = 4, .n = 4, .k = 4}));
    const ir::NodeId a_out = graph.add_tensor(make_tensor("a.out"));
    b = graph.add_op(make_op("b", ir::Conv2dAttrs{.c = 1, .h = 4, .w = 4, .k = 1, .r = 1, .s = 1}));
    const ir::NodeId b_out = graph.add_tensor(make_tensor("b.out"));
    c = graph.add_op(make_op("c", ir::GemmAttrs{.m = 4, .n = 4, .k = 4}));
    const ir::NodeId weight = graph.add_tensor(make_tensor("c.w", ir::TensorRole::kWeight));
    graph.connect(input, a);
    graph.connect(a, a_out);
    graph.connect(a_out, b);
    graph.connect(b, b_out);
    graph.connect(b_out, c);
    graph.connect(a_out, c);
    graph.connect(weight, c);
  }
};

TEST(PartitionGraph, AssignsEachOpToTheFirstUnitThatSupportsIt) {
  Diamond diamond;
  const Program program =
      partition_graph(diamond.graph, {{"mxu", "systolic", is_gemm}, {"vpu", "simd", is_anything}});
  ASSERT_EQ(program.ops.size(), 3u);
  EXPECT_EQ(program.ops[0].node, diamond.a);
  EXPECT_EQ(program.ops[0].unit_index, 0);
  EXPECT_EQ(program.ops[1].node, diamond.b);
  EXPECT_EQ(program.ops[1].unit_index, 1);
  EXPECT_EQ(program.ops[2].node, diamond.c);
  EXPECT_EQ(program.ops[2].unit_index, 0);
  ASSERT_EQ(program.per_unit.size(), 2u);
  EXPECT_EQ(program.per_unit[0], (std::vector<int>{0, 2}));
  EXPECT_EQ(program.per_unit[1], (std::vector<int>{1}));
}

TEST(PartitionGraph, DepsAreTheProducersOfAnOpsInputs) {
  Diamond diamond;
  const Program program = partition_graph(diamond.graph, {{"any", "x", is_anything}});
  EXPECT_TRUE(program.ops[0].deps.empty());
  EXPECT_EQ(program.ops[1].deps, (std::vector<int>{0}));
  // c reads b's and a's outputs; weights have no producer.
  std::vector<int> deps = program.ops[2].deps;
  std::sort(deps.begin(), deps.end());
  EXPECT_EQ(deps, (std::vector<int>{0, 1}));
}

TEST(PartitionGraph, UnsupportedOpIsABadInputErrorNamingIt) {
  Diamond diamond;
  try {
    partition_graph(diamond.graph, {{"mxu", "systolic", is_gemm}});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(error.message().find("'b'"), std::string::npos);
    EXPECT_NE(error.message().find("conv2d"), std::string::npos);
  }
}

TEST(PartitionGraph, EmptyGraphGivesEmptyProgram) {
  ir::Graph graph("empty");
  const Program program = partition_graph(graph, {{"mxu", "systolic", is_gemm}});
  EXPECT_TRUE(program.ops.empty());
  ASSERT_EQ(program.per_unit.size(), 1u);
  EXPECT_TRUE(program.per_unit[0].empty());
}

}  // namespace
}  // namespace polyarch::mapping
