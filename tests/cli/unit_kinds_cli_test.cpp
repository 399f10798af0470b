// `polyarch run` and `compare` on the shipped simd and mimd configurations with the shipped
// ResNet-50 and BERT workloads, end to end through the real program.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class UnitKindsCliTest : public polyarch::test_support::ScratchDirTest {};

TEST_F(UnitKindsCliTest, RunOnSimdAndMimdConfigsReportsBoundAndRooflinePerOp) {
  for (const std::string arch : {"configs/arch/h100_like.yaml", "configs/arch/cpu64_like.yaml"}) {
    for (const std::string workload :
         {"workloads/resnet50_layers.yaml", "workloads/bert_base_gemms.yaml",
          "workloads/kernels_transformer_layer.yaml"}) {
      const auto result = run_polyarch("run --arch " + source_path(arch) + " --workload " +
                                       source_path(workload) + " --out " + path("out"));
      ASSERT_EQ(result.exit_code, 0) << result.output;
      const auto report = nlohmann::json::parse(read_file(path("out/report.json")));
      ASSERT_FALSE(report["ops"].empty());
      for (const auto& op : report["ops"]) {
        EXPECT_EQ(op["unit"], report["units"][0]["name"]);
        EXPECT_TRUE(op["bound"].is_string()) << op.dump();
        EXPECT_GT(op["roofline"]["peak_flops_per_s"].get<double>(), 0.0);
        EXPECT_GT(op["latency_s"].get<double>(), 0.0);
      }
    }
  }
}

TEST_F(UnitKindsCliTest, CompareRunsResnet50OnSimdMimdAndSystolicConfigs) {
  const auto result = run_polyarch(
      "compare --workload " + source_path("workloads/resnet50_layers.yaml") + " --arch " +
      source_path("configs/arch/h100_like.yaml") + " --arch " +
      source_path("configs/arch/edge_dsp_16.yaml") + " --arch " +
      source_path("configs/arch/cpu64_like.yaml") + " --arch " +
      source_path("configs/arch/tpu_v1_like.yaml"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("h100-like"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("edge-dsp-16"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("cpu64-like"), std::string::npos) << result.output;
}

}  // namespace
