// `polyarch run --search S` through the real program: searched mappings reach the report, a
// second run reads every decision from the cache and simulates the same, exhaustive search
// leaves the results as each kind's own choice makes them, and bad options exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace polyarch::mapping {
namespace {

using test_support::read_file;
using test_support::run_polyarch;
using test_support::source_path;

class RunSearch : public test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(POLYARCH_CLI)) GTEST_SKIP() << "polyarch not built";
    ScratchDirTest::SetUp();
  }

  // Runs cpu64_like (one mimd unit) on the BERT-base GEMMs into DIR/out_name; the report.
  nlohmann::json run(const std::string& out_name, const std::string& options) {
    return run_on("cpu64_like.yaml", out_name, options);
  }
  nlohmann::json run_on(const std::string& arch, const std::string& out_name,
                        const std::string& options) {
    const test_support::CommandOutput output = run_polyarch(
        "run --quiet --arch " + source_path("configs/arch/" + arch) + " --workload " +
        source_path("workloads/bert_base_gemms.yaml") + " --out " + path(out_name) + " " + options);
    EXPECT_EQ(output.exit_code, 0) << output.output;
    return nlohmann::json::parse(read_file(path(out_name) + "/report.json"));
  }

  // Two runs of `arch` with one searcher and cache: the first searches and stores its decisions,
  // the second reads them and gives the same report (a report does not depend on the cache).
  void expect_cached_second_run(const std::string& arch) {
    const std::string options = "--search annealing --seed 3 --cache-dir " + path(arch + ".cache");
    const nlohmann::json first = run_on(arch, arch + ".first", options);
    const nlohmann::json second = run_on(arch, arch + ".second", options);
    ASSERT_FALSE(first["ops"].empty());
    ASSERT_EQ(second["ops"].size(), first["ops"].size());
    int searched = 0;
    for (std::size_t i = 0; i < first["ops"].size(); ++i) {
      const nlohmann::json& op = first["ops"][i];
      ASSERT_TRUE(op["mapping"].contains("search")) << arch << " " << op["name"];
      searched += op["mapping"]["search"]["evaluations"] > 0;
      const nlohmann::json& again = second["ops"][i];
      EXPECT_EQ(again["mapping"]["search"], op["mapping"]["search"]) << arch << " " << op["name"];
      EXPECT_EQ(again["total_cycles"], op["total_cycles"]) << arch << " " << op["name"];
    }
    EXPECT_GT(searched, 0) << arch;
    EXPECT_EQ(second["summary"]["total_cycles"], first["summary"]["total_cycles"]) << arch;
    EXPECT_FALSE(std::filesystem::is_empty(path(arch + ".cache"))) << arch;
    EXPECT_EQ(read_file(path(arch + ".first") + "/report.json"),
              read_file(path(arch + ".second") + "/report.json"))
        << arch;
  }
};

// Systolic arrays (dataflow, buffer partition, double buffering, temporal splits) and simd units
// (GEMM tilings) honour --search like every other kind with a mapping space.
TEST_F(RunSearch, SystolicAndSimdUnitsRunSearchedMappingsAndReadThemFromTheCache) {
  expect_cached_second_run("tpu_v1_like.yaml");
  expect_cached_second_run("edge_dsp_16.yaml");
}

// With exhaustive search under latency, a systolic unit whose own configuration is already the
// analytical optimum keeps it; any mapping it runs is the one the report names.
TEST_F(RunSearch, SearchedSystolicMappingIsReportedPerOp) {
  const nlohmann::json searched =
      run_on("tpu_v1_like.yaml", "tpu", "--search exhaustive --no-cache");
  for (const nlohmann::json& op : searched["ops"]) {
    ASSERT_TRUE(op["mapping"].contains("search")) << op["name"];
    const std::string point = op["mapping"]["search"]["point"];
    EXPECT_NE(point.find("dataflow="), std::string::npos) << point;
    EXPECT_GE(op["mapping"]["temporal_tiles"].get<int>(), 1);
  }
}

TEST_F(RunSearch, SecondRunReadsEveryDecisionFromTheCacheAndSimulatesTheSame) {
  const std::string options = "--search annealing --seed 3 --cache-dir " + path("cache");
  const nlohmann::json first = run("first", options);
  const nlohmann::json second = run("second", options);
  ASSERT_FALSE(first["ops"].empty());
  int searched = 0;
  for (const nlohmann::json& op : first["ops"]) {
    ASSERT_TRUE(op["mapping"].contains("search")) << op["name"];
    EXPECT_EQ(op["mapping"]["search"]["searcher"], "annealing");
    searched += op["mapping"]["search"]["evaluations"] > 0;
  }
  EXPECT_GT(searched, 0);
  EXPECT_FALSE(std::filesystem::is_empty(path("cache")));
  for (std::size_t i = 0; i < second["ops"].size(); ++i) {
    const nlohmann::json& op = second["ops"][i];
    EXPECT_EQ(op["mapping"]["search"], first["ops"][i]["mapping"]["search"]) << op["name"];
    EXPECT_EQ(op["total_cycles"], first["ops"][i]["total_cycles"]) << op["name"];
  }
  EXPECT_EQ(second["summary"]["total_cycles"], first["summary"]["total_cycles"]);
}

TEST_F(RunSearch, ExhaustiveSearchGivesTheResultsOfTheKindsOwnChoice) {
  const nlohmann::json own = run("own", "--mapping fixed");
  const nlohmann::json searched = run("searched", "--no-cache");
  EXPECT_EQ(searched["summary"]["total_cycles"], own["summary"]["total_cycles"]);
  for (std::size_t i = 0; i < own["ops"].size(); ++i) {
    EXPECT_FALSE(own["ops"][i]["mapping"].contains("search"));
    EXPECT_EQ(searched["ops"][i]["mapping"]["grid_rows"], own["ops"][i]["mapping"]["grid_rows"]);
  }
  EXPECT_FALSE(std::filesystem::exists(path("cache")));
}

// A report never says whether a decision came from the cache (warm and cold runs give the same
// bytes); `compile --explain` does.
TEST_F(RunSearch, ExplainSaysWhichDecisionsTheCacheHeld) {
  run("warm", "--cache-dir " + path("cache"));
  const test_support::CommandOutput explain = run_polyarch(
      "compile --workload " + source_path("workloads/bert_base_gemms.yaml") + " --arch " +
      source_path("configs/arch/cpu64_like.yaml") + " --explain --cache-dir " + path("cache"));
  EXPECT_EQ(explain.exit_code, 0) << explain.output;
  EXPECT_NE(explain.output.find("cached"), std::string::npos) << explain.output;
  EXPECT_EQ(explain.output.find("evaluations"), std::string::npos) << explain.output;
}

TEST_F(RunSearch, UnknownSearcherAndSearchOptionsWithFixedMappingAreBadInput) {
  const std::string base = "run --arch " + source_path("configs/arch/cpu64_like.yaml") +
                           " --workload " + source_path("workloads/bert_base_gemms.yaml") +
                           " --out " + path("out");
  const test_support::CommandOutput unknown = run_polyarch(base + " --search simplex");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("--search simplex: expected one of exhaustive, random, genetic, "
                                "annealing, ranked"),
            std::string::npos)
      << unknown.output;
  const test_support::CommandOutput fixed = run_polyarch(base + " --mapping fixed --objective edp");
  EXPECT_EQ(fixed.exit_code, 2);
  EXPECT_NE(fixed.output.find("--objective searches mappings, but --mapping fixed runs the "
                              "configured ones"),
            std::string::npos)
      << fixed.output;
  const test_support::CommandOutput budget =
      run_polyarch(base + " --search random --search-budget 0");
  EXPECT_EQ(budget.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(path("out")));
}

}  // namespace
}  // namespace polyarch::mapping
