// The text IR from the command line: `compile --emit-ir` writes a workload that `run` and
// `compile` accept with the same results as its source; `--passes` runs a chosen list;
// `--json` writes the compile report; `validate` reads .ir files; `--help` lists every
// registered pass, unit kind and searcher.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_polyarch.h"

namespace {

namespace fs = std::filesystem;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;
using ::testing::HasSubstr;

// Per test: ctest runs the tests of this file in parallel processes.
fs::path scratch(const std::string& name) {
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const fs::path path = fs::temp_directory_path() / ("polyarch_compile_ir_" + test + "_" + name);
  fs::remove_all(path);
  return path;
}

nlohmann::json run_summary(const std::string& arch, const std::string& workload,
                           const fs::path& out) {
  const CommandOutput run =
      run_polyarch("run --arch " + arch + " --workload " + workload + " --out " + out.string());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return nlohmann::json::parse(read_file(out / "report.json"))["summary"];
}

void expect_same_simulation(const std::string& arch, const std::string& source,
                            const std::string& emitted) {
  const nlohmann::json from_source = run_summary(arch, source, scratch("source_run"));
  const nlohmann::json from_ir = run_summary(arch, emitted, scratch("ir_run"));
  ASSERT_TRUE(from_source.contains("latency_s"));
  EXPECT_GT(from_source["latency_s"].get<double>(), 0.0);
  EXPECT_EQ(from_ir["total_cycles"], from_source["total_cycles"]);
  EXPECT_EQ(from_ir["latency_s"], from_source["latency_s"]);
  EXPECT_EQ(from_ir["energy_j"], from_source["energy_j"]);
  EXPECT_EQ(from_ir["dram_bytes_read"], from_source["dram_bytes_read"]);
}

TEST(CompileIr, EmittedLayerListRunsToTheSameLatencyAndEnergy) {
  const std::string arch = source_path("configs/arch/edge_os_32x32.yaml");
  const std::string layers = source_path("workloads/resnet50_layers.yaml");
  const fs::path emitted = scratch("resnet50.ir");
  const CommandOutput compile =
      run_polyarch("compile --workload " + layers + " --emit-ir " + emitted.string());
  ASSERT_EQ(compile.exit_code, 0) << compile.output;
  expect_same_simulation(arch, layers, emitted.string());
  // The same table: ResNet-50's 4.09 GMACs read back from the text.
  const CommandOutput again = run_polyarch("compile --workload " + emitted.string());
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_THAT(again.output, HasSubstr("total MACs: 4089184256 (4.089 G)"));
}

TEST(CompileIr, EmittedOnnxModelCompiledForTheArchRunsToTheSameResults) {
  const std::string arch = source_path("configs/arch/mixed_soc.yaml");
  const std::string model = source_path("tests/data/onnx/tiny_cnn.onnx");
  const fs::path emitted = scratch("tiny_cnn.ir");
  const CommandOutput compile = run_polyarch("compile --workload " + model + " --arch " + arch +
                                             " --emit-ir " + emitted.string());
  ASSERT_EQ(compile.exit_code, 0) << compile.output;
  expect_same_simulation(arch, model, emitted.string());
  const CommandOutput functional = run_polyarch("run --functional --workload " + emitted.string() +
                                                " --out " + scratch("functional").string());
  EXPECT_EQ(functional.exit_code, 2) << functional.output;
  EXPECT_THAT(functional.output,
              HasSubstr(emitted.string() + ": functional execution is unavailable"));
}

TEST(CompileIr, PassesRunsExactlyTheNamedList) {
  const std::string model = source_path("tests/data/onnx/tiny_cnn.onnx");
  const CommandOutput run =
      run_polyarch("compile --workload " + model + " --passes fold-constants,infer-shapes,lower");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("fold-constants: 13 -> 11 ops"));
  EXPECT_THAT(run.output, HasSubstr("lower: 11 -> 11 ops"));
  EXPECT_THAT(run.output, ::testing::Not(HasSubstr("fuse-bias-activation:")));
  EXPECT_THAT(run.output, ::testing::Not(HasSubstr("dce:")));
}

TEST(CompileIr, ValidateAcceptsAnEmittedIrFileAsAWorkload) {
  const fs::path emitted = scratch("validate.ir");
  const std::string layers = source_path("workloads/resnet50_layers.yaml");
  ASSERT_EQ(run_polyarch("compile --workload " + layers + " --emit-ir " + emitted.string())
                .exit_code,
            0);
  const CommandOutput source = run_polyarch("validate " + layers);
  const CommandOutput text = run_polyarch("validate " + emitted.string());
  ASSERT_EQ(text.exit_code, 0) << text.output;
  // ResNet-50's layer list has 54 layers, and the IR reads back as the same ops.
  EXPECT_THAT(source.output, HasSubstr("(workload, 54 ops)"));
  EXPECT_THAT(text.output, HasSubstr("(workload, 54 ops)"));
}

TEST(CompileIr, ValidateNamesTheLineOfAMalformedIrFile) {
  const fs::path broken = scratch("broken.ir");
  std::ofstream(broken) << "input %x[4]:fp32\n%r = elementwise(%x) fn=relu -> %y[4]:fp32 native\n";
  const CommandOutput validate = run_polyarch("validate " + broken.string());
  EXPECT_EQ(validate.exit_code, 2) << validate.output;
  EXPECT_THAT(validate.output, HasSubstr(broken.string() + ":2:"));
  EXPECT_THAT(validate.output, HasSubstr("elementwise needs 'elements='"));
}

TEST(CompileIr, AnUnknownPassExitsTwoWithASuggestion) {
  const CommandOutput run =
      run_polyarch("compile --workload " + source_path("tests/data/onnx/tiny_cnn.onnx") +
                   " --passes lower,fuse-gelo");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr("no pass named 'fuse-gelo'; did you mean 'fuse-gelu'?"));
}

TEST(CompileIr, HelpListsEveryPassIncludingTheFusionPasses) {
  const CommandOutput help = run_polyarch("compile --help");
  ASSERT_EQ(help.exit_code, 0);
  for (const char* pass : {"fold-conv-bn", "fuse-gelu", "fuse-norm", "fuse-attention",
                           "fuse-bias-activation", "cse", "allow-unknown", "sparsity"}) {
    EXPECT_THAT(help.output, HasSubstr(std::string("  ") + pass + " ")) << pass;
  }
  EXPECT_THAT(help.output, HasSubstr("--emit-ir FILE"));
  EXPECT_THAT(help.output, HasSubstr("--json FILE"));
}

TEST(CompileIr, HelpTextsNameEveryUnitKindAndSearcher) {
  // The lists come from the registries: a kind or searcher added there shows up here.
  for (const char* command : {"compile", "run", "validate"}) {
    const CommandOutput help = run_polyarch(std::string(command) + " --help");
    ASSERT_EQ(help.exit_code, 0);
    EXPECT_THAT(help.output, HasSubstr("systolic, simd, mimd, pim, crossbar, dataflow")) << command;
  }
  for (const char* command : {"compile", "run"}) {
    EXPECT_THAT(run_polyarch(std::string(command) + " --help").output,
                HasSubstr("exhaustive, random, genetic, annealing, ranked"))
        << command;
  }
  // The kinds whose convolution engines read NHWC, for --layout auto.
  EXPECT_THAT(run_polyarch("run --help").output, HasSubstr("(systolic, simd: nhwc)"));
}

TEST(CompileIr, JsonReportIsDeterministicAndAgreesWithTheTable) {
  const std::string model = source_path("tests/data/onnx/tiny_cnn.onnx");
  const fs::path first = scratch("first.json");
  const fs::path second = scratch("second.json");
  ASSERT_EQ(run_polyarch("compile --workload " + model + " --json " + first.string()).exit_code, 0);
  ASSERT_EQ(run_polyarch("compile --workload " + model + " --json " + second.string()).exit_code,
            0);
  const std::string text = read_file(first);
  EXPECT_EQ(read_file(second), text);
  const nlohmann::json report = nlohmann::json::parse(text);
  EXPECT_EQ(report["totals"]["macs"], 1958208);  // the table's total for this model
  EXPECT_EQ(report["totals"]["parameters"], 6794);
  ASSERT_EQ(report["passes"].size(), 14u);
  EXPECT_EQ(report["passes"][0]["name"], "fold-constants");
  EXPECT_EQ(report["passes"][0]["ops_before"], 13);
  EXPECT_EQ(report["passes"][0]["ops_after"], 11);
  int64_t macs = 0;
  for (const auto& op : report["ops"]) {
    macs += op["macs"].get<int64_t>();
    EXPECT_GE(op["bytes_read"].get<int64_t>(), 0);
  }
  EXPECT_EQ(macs, 1958208);
  const nlohmann::json& conv = report["ops"][0];
  EXPECT_EQ(conv["name"], "/c1/Conv");
  EXPECT_EQ(conv["macs"], 442368);  // 16 filters x 3x3x3 x 32x32 outputs
  // fp32: the 1x16x32x32 result is 65536 bytes written.
  EXPECT_EQ(conv["bytes_written"], 65536);
  EXPECT_EQ(conv["output_shapes"][0], "[1,16,32,32]");
}

TEST(CompileIr, MalformedIrExitsTwoAtItsLineAndColumn) {
  const fs::path bad = scratch("bad.ir");
  std::ofstream(bad) << "input %x[4]:fp32\n%r = elementwise(%x) fn=relu -> %y[4]:fp32 native\n";
  const CommandOutput run = run_polyarch("compile --workload " + bad.string());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr(bad.string() + ":2:"));
  EXPECT_THAT(run.output, HasSubstr("elementwise needs 'elements='"));
}

}  // namespace
