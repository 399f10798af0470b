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

TEST_F(UnitKindsCliTest, RunLowersAnOnnxModelAndRunsItEndToEnd) {
  for (const std::string model : {"tests/data/onnx/resnet50.onnx", "tests/data/onnx/bert_tiny.onnx"}) {
    const auto result = run_polyarch("run --quiet --arch " +
                                     source_path("configs/arch/h100_like.yaml") + " --workload " +
                                     source_path(model) + " --out " + path("out"));
    ASSERT_EQ(result.exit_code, 0) << model << ": " << result.output;
    const auto report = nlohmann::json::parse(read_file(path("out/report.json")));
    int64_t macs = 0;
    for (const auto& op : report["ops"]) macs += op["macs"].get<int64_t>();
    EXPECT_GT(macs, 0) << model;
    if (model.find("resnet50") != std::string::npos) EXPECT_EQ(macs, 4089184256);
  }
}

TEST_F(UnitKindsCliTest, ModelFilesRunAndValidate) {
  const std::string model = source_path("workloads/models/llama2_7b_decode.yaml");
  EXPECT_EQ(run_polyarch("validate " + model).exit_code, 0);
  const auto result = run_polyarch("run --quiet --arch " +
                                   source_path("configs/arch/hbm_pim_like.yaml") +
                                   " --workload " + model + " --out " + path("out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto report = nlohmann::json::parse(read_file(path("out/report.json")));
  // The decode step's GEMVs and attention go to the PIM unit, its norms to the host.
  int on_pim = 0;
  int on_host = 0;
  for (const auto& op : report["ops"]) {
    if (op["unit"] == "pim") ++on_pim;
    if (op["unit"] == "host") ++on_host;
  }
  EXPECT_GT(on_pim, 0);
  EXPECT_GT(on_host, 0);
}

TEST_F(UnitKindsCliTest, CompareRunsResnet50AndBertOnTheCrossbarPresets) {
  for (const std::string workload :
       {"workloads/resnet50_layers.yaml", "workloads/models/bert_base.yaml"}) {
    const auto result = run_polyarch(
        "compare --workload " + source_path(workload) + " --arch " +
        source_path("configs/arch/isaac_like.yaml") + " --arch " +
        source_path("configs/arch/neurosim_rram_like.yaml") + " --arch " +
        source_path("configs/arch/sram_cim_like.yaml"));
    ASSERT_EQ(result.exit_code, 0) << workload << ": " << result.output;
    EXPECT_NE(result.output.find("isaac-like"), std::string::npos) << result.output;
  }
}

TEST_F(UnitKindsCliTest, CompareRunsResnet50AndBertOnTheDataflowPresets) {
  // Plasticine's pattern units have div, exp and sqrt: the whole of BERT maps. HyCUBE is an
  // integer CGRA without them: it runs ResNet-50, and refuses LayerNorm naming the op.
  for (const std::string workload :
       {"workloads/resnet50_layers.yaml", "workloads/models/bert_base.yaml"}) {
    const auto result = run_polyarch("compare --workload " + source_path(workload) + " --arch " +
                                     source_path("configs/arch/plasticine_like.yaml"));
    ASSERT_EQ(result.exit_code, 0) << workload << ": " << result.output;
    EXPECT_NE(result.output.find("plasticine-like"), std::string::npos) << result.output;
  }
  const auto resnet =
      run_polyarch("compare --workload " + source_path("workloads/resnet50_layers.yaml") +
                   " --arch " + source_path("configs/arch/hycube_like.yaml"));
  EXPECT_EQ(resnet.exit_code, 0) << resnet.output;
  const auto bert =
      run_polyarch("compare --workload " + source_path("workloads/models/bert_base.yaml") +
                   " --arch " + source_path("configs/arch/hycube_like.yaml"));
  EXPECT_EQ(bert.exit_code, 2) << bert.output;
  EXPECT_NE(bert.output.find("norm"), std::string::npos) << bert.output;
}

}  // namespace
