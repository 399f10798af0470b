// The library behind `polyarch run --functional`: inputs by position and name, file names.
#include "compiler/interp/functional_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/error.h"
#include "compiler/interp/npy_io.h"
#include "tests/compiler/interp/reference_models.h"

namespace polyarch::interp {
namespace {

using testing::onnx_data;

TEST(FunctionalRun, TensorNamesBecomePlainFileNames) {
  EXPECT_EQ(npy_file_name("logits"), "logits.npy");
  EXPECT_EQ(npy_file_name("/encoder/layer.0/Add_output_0"), "_encoder_layer.0_Add_output_0.npy");
  EXPECT_EQ(npy_file_name(".."), "_...npy");
}

TEST(FunctionalRun, ReturnsOutputsAndDumpsAsNpyBytes) {
  FunctionalRequest request;
  request.workload_path = onnx_data("tiny_cnn.onnx");
  request.inputs = {onnx_data("tiny_cnn_input.npy")};
  request.dump_tensors = {"input"};
  const FunctionalResult result = run_functional(request);
  ASSERT_EQ(result.outputs.size(), 1u);
  EXPECT_EQ(result.outputs[0].first, "logits.npy");
  const NpyArray logits = parse_npy(result.outputs[0].second, "logits.npy");
  const NpyArray expected = read_npy(onnx_data("tiny_cnn_output.npy"));
  EXPECT_LT(testing::relative_error(logits.tensor, expected.tensor), 1e-4);
  ASSERT_EQ(result.tensors.size(), 1u);
  EXPECT_EQ(result.tensors[0].first, "input.npy");
}

TEST(FunctionalRun, ATensorAskedForTwiceIsWrittenOnce) {
  FunctionalRequest request;
  request.workload_path = onnx_data("tiny_cnn.onnx");
  request.inputs = {onnx_data("tiny_cnn_input.npy")};
  request.dump_tensors = {"input", "input"};
  EXPECT_EQ(run_functional(request).tensors.size(), 1u);
}

TEST(FunctionalRun, NamedInputAndTooManyInputsAreChecked) {
  FunctionalRequest request;
  request.workload_path = onnx_data("bert_tiny.onnx");
  request.inputs = {"input_ids=" + onnx_data("bert_tiny_input.npy")};
  EXPECT_EQ(run_functional(request).outputs.size(), 1u);
  request.inputs.push_back(onnx_data("bert_tiny_input.npy"));
  try {
    run_functional(request);
    FAIL() << "a second value for the only input was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_THAT(error.message(), ::testing::HasSubstr("already has a value"));
  }
}

}  // namespace
}  // namespace polyarch::interp
