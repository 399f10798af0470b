// `polyarch run --functional --arch`: the crossbar's analog effects applied in the reference
// interpreter, DIR/functional.json against the ideal run, and the refusal of an arch without a
// crossbar unit (exit 2).
#include <gtest/gtest.h>

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

class FunctionalArchCli : public polyarch::test_support::ScratchDirTest {
 protected:
  CommandOutput run(const std::string& arch, const std::string& extra = "") const {
    return run_polyarch("run --functional --workload " + onnx("tiny_cnn.onnx") + " --input " +
                        onnx("tiny_cnn_input.npy") + " --arch " +
                        source_path("configs/arch/" + arch) + " --out " + path("out") + extra);
  }
  nlohmann::json summary() const {
    std::ifstream file(dir_ / "out" / "functional.json");
    return nlohmann::json::parse(file);
  }
};

TEST_F(FunctionalArchCli, WritesOutputsAndTheirErrorAgainstTheIdealRun) {
  const CommandOutput result = run("sram_cim_like.yaml", " --seed 3");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "outputs" / "logits.npy")) << result.output;
  const nlohmann::json json = summary();
  EXPECT_EQ(json["schema"], "polyarch.functional/1");
  EXPECT_EQ(json["unit"]["seed"], 3);
  const nlohmann::json& logits = json["outputs"].at(0);
  EXPECT_GT(logits["max_rel_error"].get<double>(), 0.0);  // 4-bit weights and inputs
  EXPECT_TRUE(logits.contains("top1_agreement"));
  ASSERT_FALSE(json["layers"].empty());
  EXPECT_TRUE(json["layers"][0]["on_unit"].get<bool>());
  EXPECT_GT(json["layers"][0]["unit_stats"]["adc_conversions"].get<int64_t>(), 0);
}

TEST_F(FunctionalArchCli, TheSameSeedGivesTheSameSummary) {
  ASSERT_EQ(run("neurosim_rram_like.yaml", " --seed 5").exit_code, 0);
  const nlohmann::json first = summary();
  ASSERT_EQ(run("neurosim_rram_like.yaml", " --seed 5").exit_code, 0);
  EXPECT_EQ(summary(), first);
}

TEST_F(FunctionalArchCli, AnArchWithoutACrossbarIsBadInput) {
  const CommandOutput result = run("tpu_v1_like.yaml");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("crossbar"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "functional.json"));
}

}  // namespace
