// The compiler-pass flags of `compile` and `run` end to end: --allow-unknown, --precision,
// --sparsity, --layout (chosen from --arch).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;
using ::testing::HasSubstr;
using ::testing::Not;

class CompilePassFlags : public polyarch::test_support::ScratchDirTest {};

const std::string kUnknownModel = source_path("tests/data/onnx/unknown_op.onnx");

// The model has two unknown operators: both are listed at once, each with its nodes.
TEST_F(CompilePassFlags, EveryUnknownOperatorStopsTheCompileListedWithNodeTypeAndOpset) {
  const CommandOutput run = run_polyarch("compile --workload " + kUnknownModel);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr("unknown_op.onnx: graph: 2 nodes use 2 unsupported ONNX "
                                    "operators; --allow-unknown costs them"));
  EXPECT_THAT(run.output, HasSubstr("com.example.Mystery (opset 1): 1 node, graph.node[1] "
                                    "'mystery' (Mystery)"));
  EXPECT_THAT(run.output,
              HasSubstr("Softplus2 (opset 17): 1 node, graph.node[2] 'softplus2' (Softplus2)"));
}

TEST_F(CompilePassFlags, AllowUnknownCostsPlaceholdersByTheirOutputBytes) {
  const CommandOutput run = run_polyarch("compile --allow-unknown --workload " + kUnknownModel);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("allow-unknown: 4 -> 4 ops (declared 0, shape assumed 2, "
                                    "unknown ops 2)"));
  // 256 fp32 results, read and written once: 2048 bytes each.
  EXPECT_THAT(run.output, ::testing::ContainsRegex("mystery +elementwise .* 256 +2048\n"));
  EXPECT_THAT(run.output, ::testing::ContainsRegex("softplus2 +elementwise .* 256 +2048\n"));
}

TEST_F(CompilePassFlags, AllowUnknownRunsOnAnArchButNotInTheInterpreter) {
  const CommandOutput run = run_polyarch("run --quiet --allow-unknown --arch " +
                                         source_path("configs/arch/h100_like.yaml") +
                                         " --workload " + kUnknownModel + " --out " + path("out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = nlohmann::json::parse(read_file(path("out/report.json")));
  EXPECT_EQ(report["ops"].size(), 4u);
  const CommandOutput functional = run_polyarch("run --functional --allow-unknown --workload " +
                                                kUnknownModel + " --out " + path("f"));
  EXPECT_EQ(functional.exit_code, 2);
  EXPECT_THAT(functional.output, HasSubstr("drop --functional"));
}

TEST_F(CompilePassFlags, LayoutFollowsTheArchUnlessForced) {
  const std::string model = " --workload " + source_path("tests/data/onnx/tiny_cnn.onnx");
  const CommandOutput systolic =
      run_polyarch("compile --arch " + source_path("configs/arch/tpu_v1_like.yaml") + model);
  ASSERT_EQ(systolic.exit_code, 0) << systolic.output;
  EXPECT_THAT(systolic.output, ::testing::ContainsRegex("layout: [0-9]+ -> [0-9]+ ops \\(nhwc ops "
                                                        "[1-9][0-9]*, reused [0-9]+, transposes "
                                                        "[1-9]"));
  const CommandOutput cpu =
      run_polyarch("compile --arch " + source_path("configs/arch/cpu64_like.yaml") + model);
  ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
  EXPECT_THAT(cpu.output, HasSubstr("(nhwc ops 0, reused 0, transposes 0)"));
  const CommandOutput forced = run_polyarch("compile --layout nhwc" + model);
  EXPECT_THAT(forced.output, Not(HasSubstr("(nhwc ops 0,")));
  EXPECT_EQ(run_polyarch("compile --layout hwcn" + model).exit_code, 2);
}

TEST_F(CompilePassFlags, PrecisionAndSparsityShowInTheDumpAndTheBytes) {
  const std::string model = " --workload " + source_path("tests/data/onnx/resnet50.onnx");
  const CommandOutput dense = run_polyarch("compile" + model);
  const CommandOutput pruned =
      run_polyarch("compile --precision bf16 --sparsity 2:4 --dump-ir sparsity" + model);
  ASSERT_EQ(dense.exit_code, 0) << dense.output;
  ASSERT_EQ(pruned.exit_code, 0) << pruned.output;
  EXPECT_THAT(pruned.output, HasSubstr(" bf16 sparsity=2:4 density=0.5 from onnx:Conv"));
  EXPECT_THAT(pruned.output, ::testing::ContainsRegex("precision: .*changed [1-9]"));
  EXPECT_THAT(pruned.output, ::testing::ContainsRegex("sparsity: .*assumed [1-9]"));
  EXPECT_EQ(run_polyarch("compile --precision fp6" + model).exit_code, 2);
  EXPECT_EQ(run_polyarch("compile --sparsity 5:4" + model).exit_code, 2);
}

}  // namespace
