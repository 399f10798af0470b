// `polyarch run --functional` end to end: outputs and dumped tensors as .npy files that match
// ONNX Runtime's references, inputs by name, and the refusals (no weights, wrong inputs) with
// exit 2 and nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "compiler/interp/npy_io.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using polyarch::interp::read_npy;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

std::string onnx(const std::string& file) { return source_path("tests/data/onnx/" + file); }

double relative_error(const fs::path& actual_file, const std::string& expected_file) {
  const auto actual = read_npy(actual_file).tensor;
  const auto expected = read_npy(onnx(expected_file)).tensor;
  if (actual.shape != expected.shape) return INFINITY;
  double error = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < expected.values.size(); ++i) {
    error = std::max(error, double{std::fabs(actual.values[i] - expected.values[i])});
    scale = std::max(scale, double{std::fabs(expected.values[i])});
  }
  return error / scale;
}

class FunctionalRunCli : public polyarch::test_support::ScratchDirTest {
 protected:
  CommandOutput run(const std::string& arguments) const {
    return run_polyarch("run --functional " + arguments + " --out " + path("out"));
  }
  bool out_is_empty() const { return !fs::exists(dir_ / "out") || fs::is_empty(dir_ / "out"); }
};

TEST_F(FunctionalRunCli, WritesEachGraphOutputMatchingTheReference) {
  const CommandOutput result =
      run("--workload " + onnx("tiny_cnn.onnx") + " --input " + onnx("tiny_cnn_input.npy"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const fs::path outputs = dir_ / "out" / "outputs";
  ASSERT_TRUE(fs::is_directory(outputs)) << result.output;
  const auto file = fs::directory_iterator(outputs)->path();
  EXPECT_EQ(file.extension(), ".npy");
  EXPECT_LT(relative_error(file, "tiny_cnn_output.npy"), 1e-4);
}

TEST_F(FunctionalRunCli, ReadsInt64TokenIdsByInputName) {
  const CommandOutput result = run("--workload " + onnx("bert_tiny.onnx") +
                                   " --input input_ids=" + onnx("bert_tiny_input.npy"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto file = fs::directory_iterator(dir_ / "out" / "outputs")->path();
  EXPECT_LT(relative_error(file, "bert_tiny_output.npy"), 1e-4);
}

TEST_F(FunctionalRunCli, DumpsAnyTensorOfTheCompiledGraph) {
  // The input is a tensor of the compiled graph too; the dump is its value as fed.
  const CommandOutput result = run("--workload " + onnx("squeezenet1_1.onnx") + " --input " +
                                   onnx("squeezenet1_1_input.npy") + " --dump-tensor input");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_LT(relative_error(dir_ / "out" / "tensors" / "input.npy", "squeezenet1_1_input.npy"),
            1e-9);
}

TEST_F(FunctionalRunCli, UnknownDumpTensorIsBadInput) {
  const CommandOutput result = run("--workload " + onnx("tiny_cnn.onnx") + " --input " +
                                   onnx("tiny_cnn_input.npy") + " --dump-tensor nowhere");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("no tensor 'nowhere'"), std::string::npos) << result.output;
  EXPECT_TRUE(out_is_empty());
}

TEST_F(FunctionalRunCli, StructureOnlyModelsRefuseWithExitTwo) {
  for (const char* model : {"resnet50.onnx", "bert_base.onnx", "gpt2.onnx"}) {
    const CommandOutput result =
        run("--workload " + onnx(model) + " --input " + onnx("tiny_cnn_input.npy"));
    EXPECT_EQ(result.exit_code, 2) << model << ": " << result.output;
    EXPECT_NE(result.output.find("functional execution is unavailable"), std::string::npos)
        << result.output;
    EXPECT_TRUE(out_is_empty()) << model;
  }
}

TEST_F(FunctionalRunCli, LayerListsHaveNoWeightsToRun) {
  const CommandOutput result = run("--workload " + source_path("workloads/bert_base_gemms.yaml") +
                                   " --input " + onnx("tiny_cnn_input.npy"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("needs an ONNX model with weights"), std::string::npos)
      << result.output;
  EXPECT_TRUE(out_is_empty());
}

TEST_F(FunctionalRunCli, FloatFileForTokenIdsIsBadInput) {
  const CommandOutput result =
      run("--workload " + onnx("bert_tiny.onnx") + " --input " + onnx("tiny_cnn_input.npy"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("read as int64"), std::string::npos) << result.output;
}

TEST_F(FunctionalRunCli, UnknownInputNameListsTheInputs) {
  const CommandOutput result =
      run("--workload " + onnx("tiny_cnn.onnx") + " --input pixels=" + onnx("tiny_cnn_input.npy"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("no graph input 'pixels'"), std::string::npos) << result.output;
}

TEST_F(FunctionalRunCli, MissingInputIsBadInput) {
  const CommandOutput result = run("--workload " + onnx("tiny_cnn.onnx"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("was not given"), std::string::npos) << result.output;
}

TEST_F(FunctionalRunCli, InputWithoutFunctionalIsBadInput) {
  const CommandOutput result =
      run_polyarch("run --arch a.yaml --workload w.yaml --input " + onnx("tiny_cnn_input.npy"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("need --functional"), std::string::npos) << result.output;
}

}  // namespace
