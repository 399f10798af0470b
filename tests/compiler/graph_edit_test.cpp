// GraphEdit: removal and operand changes keep order, names and the functional flag.
#include "compiler/ir/graph_edit.h"

#include <gtest/gtest.h>

#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::ir {
namespace {

using testing::OnnxGraphBuilder;

TEST(GraphEdit, ErasingAnOpKeepsItsResultsAndTheRestInOrder) {
  OnnxGraphBuilder b;
  b.input("x", {2}).input("y", {2});
  b.node("Add", {"x", "y"}, {"s"}, {}, "add");
  b.node("Relu", {"s"}, {"r"}, {}, "relu");
  b.node("Neg", {"x"}, {"n"}, {}, "neg");
  b.graph.mark_functional_unavailable("no weights");
  GraphEdit edit(b.graph);
  edit.erase_op(*find_tensor(b.graph, "x") + 2);  // the Add op follows x and y
  const GraphEdit::Result result = edit.apply();
  EXPECT_EQ(print_graph(result.graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "unavailable \"no weights\"\n"
            "input %x[2]:fp32\n"
            "input %y[2]:fp32\n"
            "input %s[?]:?\n"
            "%relu = onnx:Relu(%s[?]) -> %r[?]:? native\n"
            "%neg = onnx:Neg(%x[2]) -> %n[?]:? native\n");
  EXPECT_FALSE(result.graph.functional_available());
  EXPECT_TRUE(find_tensor(result.graph, "s"));
}

TEST(GraphEdit, SetInputsReordersAndDropsOperands) {
  OnnxGraphBuilder b;
  b.input("x", {2}).input("y", {2});
  b.node("Sub", {"x", "y"}, {"d"}, {}, "sub");
  GraphEdit edit(b.graph);
  const NodeId sub = b.graph.topological_ops().front();
  edit.set_inputs(sub, {*find_tensor(b.graph, "y")});
  EXPECT_EQ(print_graph(edit.apply().graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[2]:fp32\n"
            "input %y[2]:fp32\n"
            "%sub = onnx:Sub(%y[2]) -> %d[?]:? native\n");
}

TEST(GraphEdit, ErasingATensorAnOpStillUsesIsAnInternalError) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"r"}, {}, "relu");
  GraphEdit edit(b.graph);
  edit.erase_tensor(*find_tensor(b.graph, "x"));
  const auto error = testing::capture_error([&] { edit.apply(); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kRuntime);
}

TEST(GraphEdit, ProducerAndConsumers) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"r"}, {}, "relu");
  b.node("Neg", {"x"}, {"n"}, {}, "neg");
  const NodeId x = *find_tensor(b.graph, "x");
  EXPECT_FALSE(producer_of(b.graph, x));
  EXPECT_EQ(consumers_of(b.graph, x).size(), 2u);
  EXPECT_EQ(b.graph.op(*producer_of(b.graph, *find_tensor(b.graph, "n"))).name, "neg");
}

TEST(GraphEdit, ExpandingAnOpPutsItsChainInItsPlace) {
  OnnxGraphBuilder b;
  b.input("x", {2}).input("y", {2});
  b.node("Add", {"x", "y"}, {"s"}, {}, "add");
  b.node("Relu", {"s"}, {"r"}, {}, "relu");
  const NodeId add = b.graph.topological_ops().front();
  Op neg;
  neg.name = "neg";
  neg.attrs = ElementwiseAttrs{.fn = "neg", .elements = 2, .inputs = 1};
  Op mul = neg;
  mul.name = "mul";
  mul.attrs = ElementwiseAttrs{.fn = "mul", .elements = 2, .inputs = 2};
  Tensor negated;
  negated.name = "negated";
  negated.shape = {2};
  negated.dtype = DType::kFp32;
  OpExpansion expansion;
  expansion.tensors = {negated};
  const NodeId x = *find_tensor(b.graph, "x");
  const NodeId y = *find_tensor(b.graph, "y");
  const NodeId s = *find_tensor(b.graph, "s");
  // s = y * (-x): the operands keep the order the expansion gives them.
  expansion.steps = {{neg, {x}, {OpExpansion::NewTensor{0}}},
                     {mul, {y, OpExpansion::NewTensor{0}}, {s}}};
  GraphEdit edit(b.graph);
  edit.expand_op(add, expansion);
  const GraphEdit::Result result = edit.apply();
  EXPECT_EQ(print_graph(result.graph),
            "graph \"test\"\n"
            "opset \"\" 17\n"
            "input %x[2]:fp32\n"
            "input %y[2]:fp32\n"
            "%neg = elementwise(%x[2]) fn=neg elements=2 inputs=1 -> %negated[2]:fp32 native\n"
            "%mul = elementwise(%y[2], %negated[2]) fn=mul elements=2 inputs=2 -> %s[?]:? native\n"
            "%relu = onnx:Relu(%s[?]) -> %r[?]:? native\n");
  EXPECT_EQ(result.graph.op(*result.new_id[add]).name, "neg");
}

TEST(GraphEdit, AnExpansionNamingATensorItDoesNotAddIsABug) {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"r"}, {}, "relu");
  Op neg;
  neg.name = "neg";
  neg.attrs = ElementwiseAttrs{.fn = "neg", .elements = 2, .inputs = 1};
  OpExpansion expansion;
  expansion.steps = {{neg, {*find_tensor(b.graph, "x")}, {OpExpansion::NewTensor{3}}}};
  GraphEdit edit(b.graph);
  EXPECT_THROW(edit.expand_op(b.graph.topological_ops().front(), expansion), Error);
}

}  // namespace
}  // namespace polyarch::ir
