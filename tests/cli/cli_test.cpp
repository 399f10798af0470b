// End-to-end tests of the polyarch program: exit codes, messages, files written.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/sanitizers.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class CliTest : public polyarch::test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("arch.yaml", R"(name: small
clock_ghz: 1.0
memory:
  dram: {bandwidth_gbps: 0, latency_ns: 0}
units:
  - {name: mxu, kind: systolic, rows: 32, cols: 32, dataflow: os}
)");
    write("layers.yaml", R"(layers:
  - {name: proj, op: gemm, m: 64, n: 64, k: 100}
  - {name: c1, op: conv2d, n: 1, c: 3, h: 16, w: 16, k: 8, r: 3, s: 3, stride: 1, pad: 1}
)");
  }
};

TEST_F(CliTest, RunWritesReportWithLayerNamesAndScaleSimComputeCycles) {
  CommandOutput run = run_polyarch("run --arch " + path("arch.yaml") + " --workload " +
                                   path("layers.yaml") + " --out " + path("out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  nlohmann::json report = nlohmann::json::parse(read_file(dir_ / "out/report.json"));
  EXPECT_EQ(report["schema"], "polyarch.report/1");
  ASSERT_EQ(report["ops"].size(), 2u);
  EXPECT_EQ(report["ops"][0]["name"], "proj");
  // OS 32x32, M=N=64, K=100: 4 folds of K+R+C-2 = 162 cycles; SCALE-Sim reports 4*162-1.
  EXPECT_EQ(report["ops"][0]["compute_cycles"], 647);
  // Unlimited bandwidth, zero latency: no stalls.
  EXPECT_EQ(report["ops"][0]["stall_cycles"], 0);
  EXPECT_EQ(report["ops"][1]["name"], "c1");
  EXPECT_TRUE(fs::exists(dir_ / "out/ops.csv"));
  nlohmann::json trace = nlohmann::json::parse(read_file(dir_ / "out/trace.json"));
  EXPECT_FALSE(trace["traceEvents"].empty());
  EXPECT_NE(run.output.find("proj"), std::string::npos);
}

TEST_F(CliTest, RunIsDeterministic) {
  std::string common =
      "run --quiet --arch " + path("arch.yaml") + " --workload " + path("layers.yaml");
  ASSERT_EQ(run_polyarch(common + " --out " + path("a")).exit_code, 0);
  ASSERT_EQ(run_polyarch(common + " --out " + path("b")).exit_code, 0);
  EXPECT_EQ(read_file(dir_ / "a/report.json"), read_file(dir_ / "b/report.json"));
  EXPECT_EQ(read_file(dir_ / "a/ops.csv"), read_file(dir_ / "b/ops.csv"));
}

TEST_F(CliTest, BadArchExitsTwoNamingFileLineAndWritesNothing) {
  write("bad.yaml",
        "name: x\nclock_ghz: 1\nmemory: {dram: {bandwidth_gbps: 1}}\nunits:\n"
        "  - {name: a, kind: systolic, rows: 4, cols: 4, dataflow: qs}\n");
  CommandOutput run = run_polyarch("run --arch " + path("bad.yaml") + " --workload " +
                                   path("layers.yaml") + " --out " + path("never"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("bad.yaml:5"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("units[0].dataflow"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir_ / "never"));
}

TEST_F(CliTest, BadWorkloadExitsTwo) {
  write("bad_layers.yaml", "layers:\n  - {name: g, op: gemm, m: 4, n: 0, k: 4}\n");
  CommandOutput run = run_polyarch("run --arch " + path("arch.yaml") + " --workload " +
                                   path("bad_layers.yaml") + " --out " + path("never"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("bad_layers.yaml:2"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir_ / "never"));
}

TEST_F(CliTest, MissingFilesAndOptionsExitTwo) {
  EXPECT_EQ(run_polyarch("run --arch " + path("nope.yaml") + " --workload " + path("layers.yaml"))
                .exit_code,
            2);
  CommandOutput missing = run_polyarch("run --arch " + path("arch.yaml"));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("--workload"), std::string::npos) << missing.output;
  CommandOutput typo = run_polyarch("run --arhc x");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.output.find("did you mean '--arch'"), std::string::npos) << typo.output;
  EXPECT_EQ(run_polyarch("frobnicate").exit_code, 2);
}

TEST_F(CliTest, EveryCommandHasHelp) {
  for (const char* command : {"", "run ", "validate ", "compare "}) {
    CommandOutput help = run_polyarch(std::string(command) + "--help");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.output.find("usage"), std::string::npos) << command;
  }
}

TEST_F(CliTest, ValidateAcceptsShippedFilesAndRejectsBadOnes) {
  CommandOutput good = run_polyarch("validate " + source_path("configs/arch/tpu_v1_like.yaml") +
                                    " " + source_path("configs/arch/eyeriss_like.yaml") + " " +
                                    source_path("configs/arch/edge_os_32x32.yaml") + " " +
                                    source_path("workloads/resnet50_layers.yaml") + " " +
                                    source_path("workloads/resnet50_scalesim.csv") + " " +
                                    source_path("tests/data/onnx/tiny_cnn.onnx"));
  EXPECT_EQ(good.exit_code, 0) << good.output;
  write("typo.yaml",
        "name: x\nclock_ghz: 1\nmemory: {dram: {bandwidth_gbps: 1}}\nunits:\n"
        "  - {name: a, kind: systolic, rows: 4, colls: 4, dataflow: ws}\n");
  CommandOutput bad = run_polyarch("validate " + path("typo.yaml"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("did you mean 'cols'"), std::string::npos) << bad.output;
}

TEST_F(CliTest, DemoArchAndWorkloadRun) {
  CommandOutput run = run_polyarch(
      "run --quiet --arch " + source_path("configs/arch/tpu_v1_like.yaml") + " --workload " +
      source_path("workloads/resnet50_layers.yaml") + " --out " + path("demo"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  nlohmann::json report = nlohmann::json::parse(read_file(dir_ / "demo/report.json"));
  EXPECT_EQ(report["ops"].size(), 54u);
  EXPECT_GT(report["summary"]["total_cycles"].get<int64_t>(), 0);
}

}  // namespace

namespace {

using polyarch::test_support::CommandOutput;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

std::string eyeriss_resnet_run(const std::string& out, const std::string& extra) {
  return "run --quiet --arch " + source_path("configs/arch/eyeriss_like.yaml") + " --workload " +
         source_path("workloads/resnet50_layers.yaml") + " --out " + out + " " + extra;
}

TEST(CliLimits, TimeLimitEndsTheRunWithAClearMessageAndNoFiles) {
  const fs::path out = fs::temp_directory_path() / "polyarch_cli_time_limit";
  fs::remove_all(out);
  const CommandOutput run =
      run_polyarch(eyeriss_resnet_run(out.string(), "--max-sim-seconds 0.0001"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("--max-sim-seconds"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliLimits, MemoryLimitEndsTheRunAsOutOfMemoryAndNoFiles) {
  if (polyarch::kAddressSpaceReservedBySanitizer) GTEST_SKIP() << "a sanitizer build ignores --max-memory";
  const fs::path out = fs::temp_directory_path() / "polyarch_cli_memory_limit";
  fs::remove_all(out);
  const CommandOutput run = run_polyarch(eyeriss_resnet_run(out.string(), "--max-memory 20M"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("out of memory"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliLimits, GenerousLimitsLetTheRunFinishAndBadValuesAreBadInput) {
  const fs::path out = fs::temp_directory_path() / "polyarch_cli_generous_limits";
  fs::remove_all(out);
  EXPECT_EQ(run_polyarch(eyeriss_resnet_run(out.string(), "--max-sim-seconds 60 --max-memory 4G"))
                .exit_code,
            0);
  EXPECT_TRUE(fs::exists(out / "report.json"));
  fs::remove_all(out);
  EXPECT_EQ(run_polyarch(eyeriss_resnet_run(out.string(), "--max-memory lots")).exit_code, 2);
  EXPECT_EQ(run_polyarch(eyeriss_resnet_run(out.string(), "--max-sim-seconds -1")).exit_code, 2);
}

}  // namespace
