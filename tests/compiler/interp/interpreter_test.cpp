// Whole models against ONNX Runtime's reference outputs, tensor dumps, and refusal without
// weights.
#include "compiler/interp/interpreter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "compiler/lower/pipeline.h"
#include "tests/compiler/interp/reference_models.h"

namespace polyarch::interp {
namespace {

using testing::ReferenceModel;

ReferenceModel model_named(const std::string& name) {
  for (const ReferenceModel& model : testing::reference_models()) {
    if (model.model == name) return model;
  }
  throw std::logic_error("no reference model " + name);
}

ir::Graph lowered(const ReferenceModel& model) {
  ir::Graph graph = testing::imported(model);
  lower::standard_pipeline().run(graph);
  return graph;
}

// The lowered graph's one output against the reference file.
double model_error(const std::string& name) {
  const ReferenceModel model = model_named(name);
  const ir::Graph graph = lowered(model);
  const std::vector<NamedTensor> outputs =
      run_graph(graph, testing::reference_inputs(graph, model));
  const NpyArray expected = read_npy(testing::onnx_data(model.output_file));
  EXPECT_EQ(outputs.size(), 1u);
  const double error = testing::relative_error(outputs.at(0).tensor, expected.tensor);
  ::testing::Test::RecordProperty("relative_error", std::to_string(error));
  std::cout << name << ": max relative error " << error << "\n";
  return error;
}

TEST(Interpreter, TinyCnnMatchesOnnxRuntime) { EXPECT_LT(model_error("tiny_cnn"), 1e-4); }

TEST(Interpreter, TinyCnnUnfoldedMatchesOnnxRuntime) {
  EXPECT_LT(model_error("tiny_cnn_unfolded"), 1e-4);
}

TEST(Interpreter, SqueezeNetMatchesOnnxRuntime) { EXPECT_LT(model_error("squeezenet1_1"), 1e-4); }

TEST(Interpreter, BertTinyMatchesOnnxRuntime) { EXPECT_LT(model_error("bert_tiny"), 1e-4); }

// The QDQ model's output is dequantised int8, so ONNX Runtime and the interpreter agree to
// the quantisation step; rounding a value that sits on a step boundary differently moves it by
// one step, which is 1/127 of the largest magnitude for a symmetric int8 scale.
TEST(Interpreter, TinyCnnInt8QdqMatchesOnnxRuntimeWithinOneQuantisationStep) {
  EXPECT_LE(model_error("tiny_cnn_int8_qdq"), 1.0 / 127 + 1e-6);
}

TEST(Interpreter, EvaluatesIntermediateTensorsAndWeightsByName) {
  const ReferenceModel model = model_named("tiny_cnn");
  const ir::Graph graph = lowered(model);
  const std::vector<NamedTensor> inputs = testing::reference_inputs(graph, model);
  const std::string output = graph.tensor(graph_outputs(graph).at(0)).name;
  const std::string input = inputs.at(0).name;
  const std::vector<NamedTensor> values = evaluate_tensors(graph, inputs, {output, input});
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0].tensor.values, run_graph(graph, inputs).at(0).tensor.values);
  EXPECT_EQ(values[1].tensor.values, inputs.at(0).tensor.values);
  EXPECT_THROW(evaluate_tensors(graph, inputs, {"no_such_tensor"}), Error);
}

TEST(Interpreter, MissingInputIsBadInput) {
  const ir::Graph graph = lowered(model_named("tiny_cnn"));
  try {
    run_graph(graph, {});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_THAT(error.message(), ::testing::HasSubstr("was not given"));
  }
}

TEST(Interpreter, StructureOnlyModelRefusesFunctionalMode) {
  for (const char* name : {"resnet50", "bert_base", "gpt2"}) {
    ir::Graph graph = frontend::load_workload(testing::onnx_data(std::string(name) + ".onnx"));
    ASSERT_FALSE(graph.functional_available()) << name;
    try {
      run_graph(graph, {});
      FAIL() << "expected an error for " << name;
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      EXPECT_THAT(error.message(), ::testing::HasSubstr("functional mode is unavailable"));
    }
  }
}

}  // namespace
}  // namespace polyarch::interp
