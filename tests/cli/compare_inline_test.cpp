// `polyarch compare` on an inline kernel (gemm:M,N,K, attention:B,H,S,D[,causal]) and its
// plot-ready CSV.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class CompareInlineTest : public polyarch::test_support::ScratchDirTest {};

TEST_F(CompareInlineTest, TheSameGemmOnEveryArchitectureWritesOneCsvRowEach) {
  const auto result = run_polyarch(
      "compare --workload gemm:1024,1024,1024:int8 --arch " +
      source_path("configs/arch/tpu_v1_like.yaml") + " --arch " +
      source_path("configs/arch/h100_like.yaml") + " --out " + path("out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string csv = read_file(path("out/compare.csv"));
  EXPECT_EQ(csv.rfind("arch,workload,latency_s,", 0), 0u) << csv;
  EXPECT_NE(csv.find("tpu-v1-like,\"gemm:1024,1024,1024:int8\","), std::string::npos) << csv;
  EXPECT_NE(csv.find("h100-like,\"gemm:1024,1024,1024:int8\","), std::string::npos) << csv;
  // Both rows count the same 2 x 1024^3 FLOPs.
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
}

TEST_F(CompareInlineTest, AttentionSpecsRunAndMalformedOnesAreBadInput) {
  EXPECT_EQ(run_polyarch("compare --workload attention:1,8,512,64,causal --arch " +
                         source_path("configs/arch/h100_like.yaml"))
                .exit_code,
            0);
  const auto bad = run_polyarch("compare --workload gemm:1024,x,4 --arch " +
                                source_path("configs/arch/h100_like.yaml"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("'x' is not a positive integer"), std::string::npos) << bad.output;
  const auto wrong_count = run_polyarch("compare --workload attention:1,8,512 --arch " +
                                        source_path("configs/arch/h100_like.yaml"));
  EXPECT_EQ(wrong_count.exit_code, 2);
}

TEST_F(CompareInlineTest, AnArchitectureThatCannotRunTheWorkloadKeepsItsRowAndTheOthersRun) {
  // A systolic-only SoC has no unit for attention's softmax; the GPU-like one runs it.
  const std::string tpu = source_path("configs/arch/tpu_v1_like.yaml");
  const auto result = run_polyarch("compare --workload attention:1,8,512,64 --arch " + tpu +
                                   " --arch " + source_path("configs/arch/h100_like.yaml") +
                                   " --out " + path("out"));
  EXPECT_EQ(result.exit_code, 2) << result.output;  // bad input for one of them
  EXPECT_NE(result.output.find("could not run the workload (" + tpu + ")"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("h100-like "), std::string::npos) << result.output;
  EXPECT_TRUE(std::filesystem::exists(path("out/h100-like/report.json")));
  const std::string csv = read_file(path("out/compare.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;
  // The failed row has no figures and its reason in the last column; the other has no error.
  EXPECT_NE(csv.find("tpu_v1_like,\"attention:1,8,512,64\",,,,,,,,,,,,"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",\n", csv.find("h100-like,")), std::string::npos) << csv;
}

}  // namespace
