// The IR verifier, and the pass manager running it after every pass.
#include "compiler/ir/verifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/ir_parser.h"
#include "compiler/passes/pass_manager.h"
#include "tests/base/error_capture.h"

namespace polyarch::ir {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

Graph relu_chain() {
  return parse_ir(
      "input %x[4]:fp32\n"
      "%a = elementwise(%x) fn=relu elements=4 inputs=1 -> %y[4]:fp32 native\n"
      "%b = elementwise(%y) fn=relu elements=4 inputs=1 -> %z[4]:fp32 native\n"
      "output %z\n",
      "chain.ir");
}

TEST(IrVerifier, AWellFormedGraphHasNoProblems) {
  EXPECT_THAT(verify_graph(relu_chain()), IsEmpty());
}

TEST(IrVerifier, FindsDuplicateNamesASecondWriterAndAnInvalidOp) {
  Graph graph = relu_chain();
  const std::vector<NodeId> ops = graph.topological_ops();
  graph.op(ops[1]).name = "a";
  // %a also writes %z: two producers of one tensor.
  graph.connect(ops[0], graph.outputs_of(ops[1])[0]);
  std::get<ElementwiseAttrs>(graph.op(ops[0]).attrs).elements = 0;
  const std::vector<std::string> problems = verify_graph(graph);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_THAT(problems[0], HasSubstr("op name 'a' is used twice"));
  EXPECT_THAT(problems[1], HasSubstr("tensor 'z' is written by 2 ops"));
  EXPECT_THAT(problems[2], HasSubstr("'a'"));
}

TEST(IrVerifier, FindsACycle) {
  Graph graph = relu_chain();
  const std::vector<NodeId> ops = graph.topological_ops();
  graph.connect(graph.outputs_of(ops[1])[0], ops[0]);  // %z feeds %a, which feeds %b
  EXPECT_THAT(verify_graph(graph), ElementsAre(HasSubstr("cycle")));
}

TEST(IrVerifier, FindsAGemmWhoseOperandsDisagreeWithItsAttributes) {
  Graph graph = parse_ir(
      "input %a[4,16]:fp32\n"
      "weight %b[16,8]:fp32\n"
      "%mm = gemm(%a, %b) m=4 n=8 k=16 batch=1 -> %p[1,4,8]:fp32 native\n"
      "output %p\n",
      "gemm.ir");
  EXPECT_THAT(verify_graph(graph), IsEmpty());
  // A pass that halves k in the attributes but leaves the tensors: A holds 4x16, not 4x8.
  std::get<GemmAttrs>(graph.op(graph.topological_ops()[0]).attrs).k = 8;
  EXPECT_THAT(verify_graph(graph),
              ElementsAre(HasSubstr("op 'mm': input 'a' has 64 elements ([4,16]), its attributes "
                                    "say 32 ([1,4,8])"),
                          HasSubstr("input 'b' has 128 elements")));
}

TEST(IrVerifier, AcceptsAnImportedTransposedOperandOfTheSameSize) {
  // ONNX Gemm with transB keeps its [n,k] weight; the attributes describe it as [k,n].
  Graph graph = parse_ir(
      "input %a[4,16]:fp32\n"
      "weight %b[8,16]:fp32\n"
      "%mm = gemm(%a, %b) m=4 n=8 k=16 batch=1 -> %p[4,8]:fp32 native\n"
      "output %p\n",
      "gemm_t.ir");
  EXPECT_THAT(verify_graph(graph), IsEmpty());
  std::get<GemmAttrs>(graph.op(graph.topological_ops()[0]).attrs).n = 4;
  EXPECT_THAT(verify_graph(graph), ::testing::Contains(HasSubstr("result 'p' has 32 elements")));
}

// Renames every op to one name: a bug no pass should have.
class BreakingPass : public passes::Pass {
 public:
  std::string_view name() const override { return "rename-all"; }
  passes::PassStatistics run(Graph& graph) override {
    for (NodeId id : graph.topological_ops()) graph.op(id).name = "same";
    return {};
  }
};

TEST(IrVerifier, ThePassManagerNamesThePassThatBrokeTheGraph) {
  passes::PassManager manager;
  manager.add(std::make_unique<BreakingPass>());
  manager.verify_each(true);
  Graph graph = relu_chain();
  const std::optional<Error> error = testing::capture_error([&] { manager.run(graph); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kRuntime);  // a compiler bug, not the user's input
  EXPECT_THAT(error->what(), HasSubstr("pass 'rename-all'"));
  EXPECT_THAT(error->what(), HasSubstr("op name 'same' is used twice"));
}

TEST(IrVerifier, WithVerificationOffTheBrokenGraphPassesThrough) {
  passes::PassManager manager;
  manager.add(std::make_unique<BreakingPass>());
  manager.verify_each(false);
  Graph graph = relu_chain();
  EXPECT_NO_THROW(manager.run(graph));
}

}  // namespace
}  // namespace polyarch::ir
