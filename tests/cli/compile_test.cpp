// End-to-end tests of `polyarch compile`: exit codes and what it prints.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/support/run_polyarch.h"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::run_polyarch;

std::string onnx_model(const std::string& name) {
  return (fs::path(POLYARCH_SOURCE_DIR) / "tests/data/onnx" / name).string();
}

TEST(CompileCommand, TinyCnnPrintsOpTypeCountsAndExitsZero) {
  const CommandOutput run = run_polyarch("compile --workload " + onnx_model("tiny_cnn.onnx"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("13 ops"));
  EXPECT_THAT(run.output, HasSubstr("functional execution: available"));
  EXPECT_THAT(run.output, ::testing::ContainsRegex("onnx:Conv +4 "));
  EXPECT_THAT(run.output, Not(HasSubstr("= onnx:Conv(")));  // no IR dump unless asked
}

TEST(CompileCommand, DumpIrImportPrintsTheGraphAsImported) {
  const CommandOutput run =
      run_polyarch("compile --dump-ir import --workload " + onnx_model("tiny_cnn.onnx"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("--- IR as imported ---"));
  EXPECT_THAT(run.output, HasSubstr("= onnx:Conv(%input[1,3,32,32]"));
  EXPECT_THAT(run.output, HasSubstr("-> %logits[1,10]"));
  EXPECT_THAT(run.output, Not(HasSubstr("--- IR after")));
}

TEST(CompileCommand, PrintsThePassPipelineAndTheLoweredOps) {
  const CommandOutput run = run_polyarch("compile --workload " + onnx_model("tiny_cnn.onnx"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("fold-constants: 13 -> 11 ops (constants 2"));
  EXPECT_THAT(run.output, HasSubstr("infer-shapes: 11 -> 11 ops"));
  EXPECT_THAT(run.output, HasSubstr("dce: 11 -> 11 ops"));
  EXPECT_THAT(run.output, HasSubstr("lower: 11 -> 11 ops"));
  // The conv's FLOPs: 2 per MAC, its bias and the ReLU fused into it.
  EXPECT_THAT(run.output, HasSubstr("fuse-bias-activation: 11 -> 8 ops (activation clip 1, "
                                    "activation relu 2, fused 3"));
  EXPECT_THAT(run.output, ::testing::ContainsRegex("/c1/Conv +conv2d +\\[1,3,32,32\\] -> "
                                                   "\\[1,16,32,32\\] +442368 +917504 "));
  EXPECT_THAT(run.output, HasSubstr("total MACs: 1958208 (0.002 G)"));
  EXPECT_THAT(run.output, HasSubstr("total parameters: 6794"));
}

TEST(CompileCommand, DumpIrAfterANamedPassOrAll) {
  const CommandOutput lower =
      run_polyarch("compile --dump-ir lower --workload " + onnx_model("tiny_cnn.onnx"));
  ASSERT_EQ(lower.exit_code, 0) << lower.output;
  EXPECT_THAT(lower.output, HasSubstr("--- IR after lower ---"));
  EXPECT_THAT(lower.output, HasSubstr("%/c1/Conv = conv2d(%input[1,3,32,32]"));
  EXPECT_THAT(lower.output, Not(HasSubstr("--- IR after dce ---")));
  const CommandOutput all =
      run_polyarch("compile --dump-ir all --workload " + onnx_model("tiny_cnn.onnx"));
  for (const char* pass : {"fold-constants", "infer-shapes", "dce", "lower"}) {
    EXPECT_THAT(all.output, HasSubstr(std::string("--- IR after ") + pass + " ---"));
  }
}

TEST(CompileCommand, UnknownDumpPassExitsTwoListingThePasses) {
  const CommandOutput run =
      run_polyarch("compile --dump-ir fuse --workload " + onnx_model("tiny_cnn.onnx"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr("no pass named 'fuse'"));
}

TEST(CompileCommand, ResNet50AndBertBaseTotals) {
  const CommandOutput resnet = run_polyarch("compile --workload " + onnx_model("resnet50.onnx"));
  ASSERT_EQ(resnet.exit_code, 0) << resnet.output;
  EXPECT_THAT(resnet.output, HasSubstr("total MACs: 4089184256 (4.089 G)"));
  EXPECT_THAT(resnet.output, ::testing::ContainsRegex("conv2d +53 "));
  const CommandOutput bert = run_polyarch("compile --workload " + onnx_model("bert_base.onnx"));
  ASSERT_EQ(bert.exit_code, 0) << bert.output;
  EXPECT_THAT(bert.output, HasSubstr("(11.174 G)"));
  EXPECT_THAT(bert.output, HasSubstr("(108.892 M)"));
  // What the fusion passes made of the export's primitives, by pattern.
  EXPECT_THAT(bert.output, HasSubstr("fuse-gelu: 450 -> 402 ops (fused 12, gelu erf 12"));
  EXPECT_THAT(bert.output, HasSubstr("fuse-attention: 402 -> 222 ops (fused 12, masked 12"));
  EXPECT_THAT(bert.output, HasSubstr("fuse-bias-activation: 222 -> 138 ops (activation gelu 12, "
                                     "bias 72, fused 84"));
}

TEST(CompileCommand, StructureOnlyModelSaysFunctionalExecutionIsUnavailable) {
  const CommandOutput run = run_polyarch("compile --workload " + onnx_model("resnet50.onnx"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("functional execution: unavailable"));
  EXPECT_THAT(run.output, HasSubstr("resnet50.weights"));
}

TEST(CompileCommand, LayerListWorkloadShowsCanonicalOpsWithMacs) {
  const std::string layers =
      (fs::path(POLYARCH_SOURCE_DIR) / "workloads/resnet50_layers.yaml").string();
  const CommandOutput run = run_polyarch("compile --workload " + layers);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, ::testing::ContainsRegex("conv2d +53 "));
}

TEST(CompileCommand, GarbageFileExitsTwoNamingTheFile) {
  const fs::path garbage = fs::temp_directory_path() / "polyarch_compile_garbage.onnx";
  std::ofstream(garbage, std::ios::binary) << "definitely not protobuf \xff\xff\xff";
  const CommandOutput run = run_polyarch("compile --workload " + garbage.string());
  fs::remove(garbage);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr(garbage.string() + ": not an ONNX model"));
}

TEST(CompileCommand, MissingWorkloadOptionAndHelp) {
  EXPECT_EQ(run_polyarch("compile").exit_code, 2);
  const CommandOutput help = run_polyarch("compile --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.output, HasSubstr("usage: polyarch compile"));
  EXPECT_THAT(run_polyarch("--help").output, HasSubstr("compile"));
}

}  // namespace
