// "Graph passes must not change results": every model with weights runs through the standard
// pipeline one pass at a time, and the interpreter's outputs after each pass are held to those
// before it — from the graph as imported (folding's shape chains executed as ONNX defines them)
// to the lowered one.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <variant>

#include "compiler/interp/interpreter.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/interp/reference_models.h"

namespace polyarch::interp {
namespace {

using testing::ReferenceModel;

std::map<std::string, DenseTensor> outputs_by_name(const ir::Graph& graph,
                                                   const std::vector<NamedTensor>& inputs) {
  std::map<std::string, DenseTensor> outputs;
  for (NamedTensor& output : run_graph(graph, inputs)) outputs[output.name] = output.tensor;
  return outputs;
}

class PassInvariance : public ::testing::TestWithParam<ReferenceModel> {};

TEST_P(PassInvariance, EveryPassKeepsTheOutputs) {
  ir::Graph graph = testing::imported(GetParam());
  const std::vector<NamedTensor> inputs = testing::reference_inputs(graph, GetParam());
  ASSERT_TRUE(lower::needs_lowering(graph)) << "the imported graph runs as ONNX nodes";
  std::map<std::string, DenseTensor> before = outputs_by_name(graph, inputs);
  ASSERT_FALSE(before.empty());
  for (const std::unique_ptr<passes::Pass>& pass : lower::standard_passes()) {
    SCOPED_TRACE(std::string(pass->name()));
    pass->run(graph);
    const std::map<std::string, DenseTensor> after = outputs_by_name(graph, inputs);
    ASSERT_EQ(after.size(), before.size());
    for (const auto& [name, value] : before) {
      ASSERT_EQ(after.count(name), 1u) << "output " << name << " disappeared";
      // Passes move no arithmetic between fp32 kernels: the same numbers, up to summation
      // order in reductions.
      EXPECT_LT(testing::relative_error(after.at(name), value), 1e-6) << "output " << name;
    }
    before = after;
  }
  EXPECT_FALSE(lower::needs_lowering(graph)) << "the last graph runs as canonical ops";
}

// The comparison would see a pass that changed arithmetic: here, one that turns the first
// canonical addition into a subtraction.
TEST(PassInvarianceCheck, SeesAPassThatChangesAnOp) {
  const ReferenceModel model = testing::reference_models().front();  // tiny_cnn
  ir::Graph graph = testing::imported(model);
  lower::standard_pipeline().run(graph);
  const std::vector<NamedTensor> inputs = testing::reference_inputs(graph, model);
  const std::map<std::string, DenseTensor> before = outputs_by_name(graph, inputs);
  bool changed = false;
  for (ir::NodeId id : graph.topological_ops()) {
    auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&graph.op(id).attrs);
    if (!changed && elementwise != nullptr && elementwise->fn == "add") {
      elementwise->fn = "sub";
      changed = true;
    }
  }
  ASSERT_TRUE(changed);
  const std::map<std::string, DenseTensor> after = outputs_by_name(graph, inputs);
  EXPECT_GT(testing::relative_error(after.begin()->second, before.begin()->second), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Models, PassInvariance, ::testing::ValuesIn(testing::reference_models()),
                         [](const ::testing::TestParamInfo<ReferenceModel>& info) {
                           return info.param.model;
                         });

}  // namespace
}  // namespace polyarch::interp
