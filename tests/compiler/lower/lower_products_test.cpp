// Lowering of Einsum, the signal operators and the value-dependent selections.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/lower/lower_onnx.h"
#include "compiler/passes/shape_inference.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::lower {
namespace {

using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;
using AttributeMap = std::map<std::string, ir::AttributeValue>;

const ir::Op& lowered_op(OnnxGraphBuilder& b) {
  passes::ShapeInferencePass().run(b.graph);
  LoweringPass().run(b.graph);
  const std::vector<ir::NodeId> ops = b.graph.topological_ops();
  EXPECT_EQ(ops.size(), 1u);
  return b.graph.op(ops.front());
}

OnnxGraphBuilder einsum_graph(const std::string& equation, std::vector<int64_t> a,
                              std::optional<std::vector<int64_t>> b_shape) {
  OnnxGraphBuilder b;
  b.input("a", std::move(a));
  std::vector<std::string> operands = {"a"};
  if (b_shape) {
    b.input("b", *b_shape);
    operands.push_back("b");
  }
  b.node("Einsum", operands, {"y"}, AttributeMap{{"equation", equation}}, "einsum");
  b.output("y");
  return b;
}

// "bij,bjk->bik" over [2,3,4] and [2,4,5]: 2 products of 3x4 by 4x5, 2*3*5*4 = 120 MACs.
TEST(LowerProducts, EinsumOfABatchedProductIsABatchedGemm) {
  OnnxGraphBuilder b = einsum_graph("bij,bjk->bik", {2, 3, 4}, std::vector<int64_t>{2, 4, 5});
  const ir::Op& op = lowered_op(b);
  const auto& gemm = std::get<ir::GemmAttrs>(op.attrs);
  EXPECT_EQ(gemm.batch, 2);
  EXPECT_EQ(gemm.m, 3);
  EXPECT_EQ(gemm.n, 5);
  EXPECT_EQ(gemm.k, 4);
  EXPECT_FALSE(gemm.b_shared);
  EXPECT_EQ(ir::mac_count(op), 120);
}

// "ij->i" sums 4 elements into each of 3 rows; "ij->ji" only moves the 12 floats (48 bytes).
TEST(LowerProducts, EinsumOfOneOperandSumsOrMoves) {
  OnnxGraphBuilder sum = einsum_graph("ij->i", {3, 4}, std::nullopt);
  const auto& reduce = std::get<ir::ReduceAttrs>(lowered_op(sum).attrs);
  EXPECT_EQ(reduce.rows, 3);
  EXPECT_EQ(reduce.cols, 4);
  OnnxGraphBuilder transpose = einsum_graph("ij->ji", {3, 4}, std::nullopt);
  EXPECT_EQ(std::get<ir::CopyAttrs>(lowered_op(transpose).attrs).bytes, 48);
}

// "ij,jk->k" sums i within A alone before the product: no Gemm does that, so it is refused.
TEST(LowerProducts, EinsumSummingWithinOneOperandIsRefusedByName) {
  OnnxGraphBuilder b = einsum_graph("ij,jk->k", {3, 4}, std::vector<int64_t>{4, 5});
  EXPECT_THAT(testing::error_text([&] { lowered_op(b); }),
              HasSubstr("Einsum equation sums label 'i' within one operand"));
}

// A DFT of 8 real samples along axis 1 of [2, 8, 1]: 2 * 8 bins * 2 parts, each summing 8.
TEST(LowerProducts, DftReducesEachResultValueOverItsSamples) {
  OnnxGraphBuilder b;
  b.input("x", {2, 8, 1});
  b.node("DFT", {"x"}, {"y"}, AttributeMap{{"axis", int64_t{1}}}, "dft");
  b.output("y");
  const auto& reduce = std::get<ir::ReduceAttrs>(lowered_op(b).attrs);
  EXPECT_EQ(reduce.rows, 32);
  EXPECT_EQ(reduce.cols, 8);
}

}  // namespace
}  // namespace polyarch::lower
