// End-to-end tests of `polyarch compile`: exit codes and what it prints.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

struct CommandOutput {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

CommandOutput run_polyarch(const std::string& arguments) {
  const std::string command = std::string(POLYARCH_CLI) + " " + arguments + " 2>&1";
  CommandOutput result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  while (std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) {
    result.output.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

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

TEST(CompileCommand, DumpIrPrintsTheGraph) {
  const CommandOutput run =
      run_polyarch("compile --dump-ir --workload " + onnx_model("tiny_cnn.onnx"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("= onnx:Conv(%input[1,3,32,32]"));
  EXPECT_THAT(run.output, HasSubstr("-> %logits[1,10]"));
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
