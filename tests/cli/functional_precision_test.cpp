// `polyarch run --functional --precision P`: tiny_cnn run with its ops in the scheme's formats
// against its fp32 run, DIR/functional.json per output and per layer; fp32 as the scheme gives
// zero error; --precision with --arch, and schemes the interpreter cannot emulate, are refused
// without writing anything (exit 2).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

std::string onnx(const std::string& file) { return source_path("tests/data/onnx/" + file); }

// tiny_cnn has five matrix layers on the path to its logits (conv, conv, depthwise conv,
// pointwise conv, linear). In each, both operands carry a relative rounding error of at most u
// (E4M3: u = 2^-4, half a step of 3 mantissa bits; int4 weights: half a step, 1/14 of a group's
// largest weight, at worst relative to it; fp16 activations 2^-11), so a product carries at most
// (1 + u_a)(1 + u_w) - 1, the layer's rounded result (bf16 for fp8, 2^-8; fp16, 2^-11) one more
// factor, and the error passed in from the layer before is carried along. Over five layers the
// logits' error relative to their largest magnitude is at most
//   fp8:   ((1 + 2^-4)^2 (1 + 2^-8))^5 - 1 = 0.87,
//   w4a16: ((1 + 1/14)(1 + 2^-11)^2)^5 - 1 = 0.42,
// where a layer's sum does not cancel (its largest output is about the sum of its terms'
// magnitudes). The logits sum many products of mixed signs, so this bounds the typical case
// rather than every input; docs/numerics.md lists what tiny_cnn measures (0.023 and 0.087).
constexpr double kFp8Bound = 0.87;
constexpr double kW4A16Bound = 0.42;

class FunctionalPrecisionCli : public polyarch::test_support::ScratchDirTest {
 protected:
  CommandOutput run(const std::string& precision, const std::string& extra = "") const {
    return run_polyarch("run --functional --workload " + onnx("tiny_cnn.onnx") + " --input " +
                        onnx("tiny_cnn_input.npy") + " --precision " + precision + " --out " +
                        path("out") + extra);
  }
  nlohmann::json summary() const {
    std::ifstream file(dir_ / "out" / "functional.json");
    return nlohmann::json::parse(file);
  }
  // Every layer differs from fp32, and the logits by less than `bound`.
  void expect_errors_within(const std::string& precision, double bound) {
    const CommandOutput result = run(precision);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("logits vs fp32: max rel error"), std::string::npos)
        << result.output;
    const nlohmann::json json = summary();
    EXPECT_EQ(json["schema"], "polyarch.functional/1");
    EXPECT_EQ(json["precision"]["scheme"], precision);
    const nlohmann::json& logits = json["outputs"].at(0);
    EXPECT_GT(logits["max_rel_error"].get<double>(), 0.0);
    EXPECT_LT(logits["max_rel_error"].get<double>(), bound);
    EXPECT_TRUE(logits.contains("top1_agreement"));
    ASSERT_GE(json["layers"].size(), 5u);
    for (const nlohmann::json& layer : json["layers"]) {
      EXPECT_GT(layer["max_abs_error"].get<double>(), 0.0) << layer.dump();
    }
  }
};

TEST_F(FunctionalPrecisionCli, W4A16DiffersFromFp32InEveryLayerWithinTheBound) {
  expect_errors_within("w4a16", kW4A16Bound);
  const nlohmann::json json = summary();
  EXPECT_EQ(json["layers"][0]["dtype"], "fp16");
  EXPECT_EQ(json["layers"][0]["weight_format"], "int4:g128");
}

TEST_F(FunctionalPrecisionCli, Fp8DiffersFromFp32InEveryLayerWithinTheBound) {
  expect_errors_within("fp8", kFp8Bound);
  EXPECT_EQ(summary()["layers"][0]["dtype"], "fp8_e4m3");
}

TEST_F(FunctionalPrecisionCli, Fp32HasNoErrorAnywhere) {
  const CommandOutput result = run("fp32");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const nlohmann::json json = summary();
  EXPECT_EQ(json["outputs"][0]["max_abs_error"].get<double>(), 0.0);
  ASSERT_FALSE(json["layers"].empty());
  for (const nlohmann::json& layer : json["layers"]) {
    EXPECT_EQ(layer["max_abs_error"].get<double>(), 0.0) << layer.dump();
  }
}

TEST_F(FunctionalPrecisionCli, TheSameSchemeGivesTheSameSummaryAndOutputs) {
  ASSERT_EQ(run("fp8").exit_code, 0);
  const nlohmann::json first = summary();
  ASSERT_EQ(run("fp8").exit_code, 0);
  EXPECT_EQ(summary(), first);
}

TEST_F(FunctionalPrecisionCli, WithAnArchIsRefusedByName) {
  const CommandOutput result =
      run("fp8", " --arch " + source_path("configs/arch/sram_cim_like.yaml"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--arch"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(FunctionalPrecisionCli, ATypeWithoutAnEmulationIsRefusedNamingIt) {
  const CommandOutput result = run("fp16,softmax=fp8");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("softmax in fp8_e4m3"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  EXPECT_EQ(run("fp6").exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(FunctionalPrecisionCli, SparsityAndLayoutAreStillRefused) {
  EXPECT_EQ(run("fp16", " --sparsity 2:4").exit_code, 2);
  EXPECT_EQ(run("fp16", " --layout nhwc").exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
