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

// Runs the pipeline with `options` one pass at a time, holding the outputs after each pass to
// those before it.
void expect_every_pass_keeps_the_outputs(const ReferenceModel& model,
                                         const lower::PipelineOptions& options) {
  ir::Graph graph = testing::imported(model);
  const std::vector<NamedTensor> inputs = testing::reference_inputs(graph, model);
  ASSERT_TRUE(lower::needs_lowering(graph)) << "the imported graph runs as ONNX nodes";
  std::map<std::string, DenseTensor> before = outputs_by_name(graph, inputs);
  ASSERT_FALSE(before.empty());
  for (const std::unique_ptr<passes::Pass>& pass : lower::standard_passes(options)) {
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

TEST_P(PassInvariance, EveryPassKeepsTheOutputs) {
  expect_every_pass_keeps_the_outputs(GetParam(), {});
}

// The target-dependent passes too: NHWC layout (its transposes run as identities), bf16
// precision and an assumed 2:4 sparsity only annotate costs.
TEST_P(PassInvariance, TargetPassesKeepTheOutputs) {
  expect_every_pass_keeps_the_outputs(
      GetParam(), {.precision = passes::parse_precision_policy("bf16"),
                   .sparsity = passes::parse_sparsity_policy("2:4"),
                   .conv_layout = ir::Layout::kNhwc});
}

// The fusion passes above are not vacuous on these models: what each one fused, by pattern.
TEST(PassInvarianceCheck, FusionPassesFuseTheReferenceModels) {
  const std::map<std::string, std::map<std::string, int64_t>> expected = {
      {"bert_tiny", {{"fuse-gelu", 2}, {"fuse-attention", 2}, {"fuse-bias-activation", 14}}},
      {"tiny_cnn_unfolded", {{"fold-conv-bn", 2}, {"fuse-bias-activation", 3}}},
      {"squeezenet1_1", {{"fuse-bias-activation", 26}}}};
  for (const ReferenceModel& model : testing::reference_models()) {
    if (expected.count(model.model) == 0) continue;
    ir::Graph graph = testing::imported(model);
    for (const passes::PassRecord& record : lower::standard_pipeline().run(graph)) {
      const auto& counts = expected.at(model.model);
      if (counts.count(record.pass) == 0) continue;
      const char* counter = record.pass == "fold-conv-bn" ? "folded" : "fused";
      EXPECT_EQ(record.statistics.get(counter), counts.at(record.pass))
          << model.model << " " << record.pass;
    }
  }
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
