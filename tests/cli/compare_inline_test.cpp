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
  const std::size_t h100_row = csv.find("h100-like,");
  const std::string h100 = csv.substr(h100_row, csv.find('\n', h100_row) - h100_row);
  EXPECT_EQ(h100.find("could not"), std::string::npos) << h100;
}

// Types: an int8 array cannot multiply fp32, so it runs an fp32 GEMM as int8 and says so (the
// row's dtype is marked, a note under the table names the conversion); a GPU-like unit computes
// fp32 itself. The converted run moves and computes exactly what the same GEMM given in int8
// does.
TEST_F(CompareInlineTest, AUnitThatConvertsATypeSaysSoAndRunsTheTypeItComputes) {
  const std::string tpu = source_path("configs/arch/tpu_v1_like.yaml");
  const auto fp32 = run_polyarch("compare --mapping fixed --workload gemm:512,512,512:fp32 --arch " +
                                 tpu + " --arch " + source_path("configs/arch/h100_like.yaml") +
                                 " --out " + path("fp32"));
  ASSERT_EQ(fp32.exit_code, 0) << fp32.output;
  EXPECT_NE(fp32.output.find("int8*"), std::string::npos) << fp32.output;
  EXPECT_NE(fp32.output.find("* tpu-v1-like: converted fp32->int8 (1 ops)"), std::string::npos)
      << fp32.output;
  const std::string csv = read_file(path("fp32/compare.csv"));
  EXPECT_NE(csv.find(",int8,fp32->int8 (1 ops),"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",fp32,,"), std::string::npos) << csv;  // h100-like: fp32, nothing converted

  const auto int8 = run_polyarch("compare --mapping fixed --workload gemm:512,512,512:int8 --arch " +
                                 tpu + " --out " + path("int8"));
  ASSERT_EQ(int8.exit_code, 0) << int8.output;
  auto latency_column = [](const std::string& file) {
    const std::size_t row = file.find("tpu-v1-like,");
    const std::size_t after_workload = file.find("\",", row) + 2;
    return file.substr(after_workload, file.find(',', after_workload) - after_workload);
  };
  EXPECT_EQ(latency_column(csv), latency_column(read_file(path("int8/compare.csv"))));
}

}  // namespace
