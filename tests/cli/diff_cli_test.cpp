// End-to-end tests of `polyarch diff`: two real `polyarch run` reports (BERT-base GEMMs on the
// TPU-v1-like 256x256 array and on the 32x32 edge array), exit codes 0/3/2, outputs.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using namespace polyarch::test_support;

class DiffCliTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    simulate("configs/arch/tpu_v1_like.yaml", "tpu");
    simulate("configs/arch/edge_os_32x32.yaml", "edge");
  }

  void simulate(const std::string& arch, const std::string& out) {
    const CommandOutput run =
        run_polyarch("run --quiet --arch " + source_path(arch) + " --workload " +
                     source_path("workloads/bert_base_gemms.yaml") + " --out " + path(out));
    ASSERT_EQ(run.exit_code, 0) << run.output;
  }

  std::string report(const std::string& name) const { return path(name + "/report.json"); }

  // A summary value as the diff prints it (%.6g).
  double summary_value(const std::string& name, const std::string& key) const {
    return nlohmann::json::parse(read_file(report(name)))["summary"][key].get<double>();
  }

  CommandOutput diff(const std::string& arguments) { return run_polyarch("diff " + arguments); }
};

std::string six_digits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

TEST_F(DiffCliTest, AReportAgainstItselfPassesEveryRuleWithExitZero) {
  const CommandOutput run =
      diff(report("tpu") + " " + report("tpu") + " --fail-on latency:+0%,energy:+0%" +
           " --fail-on utilization:-0% --fail-on ffn1.cycles:+0cycles");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("result: no regression (4 checks passed)"), std::string::npos)
      << run.output;
}

TEST_F(DiffCliTest, SlowerArchitectureFailsTheLatencyRuleWithExitThreeAndBothValues) {
  const CommandOutput run =
      diff(report("tpu") + " " + report("edge") + " --allow-different --fail-on latency:+5%");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  const std::string expected = "FAIL latency:+5%: summary latency_s went from " +
                               six_digits(summary_value("tpu", "latency_s")) + " (BASE) to " +
                               six_digits(summary_value("edge", "latency_s")) + " (NEW)";
  EXPECT_NE(run.output.find(expected), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("result: REGRESSION (1 of 1 checks failed)"), std::string::npos);
}

TEST_F(DiffCliTest, RulesFollowTheirDirection) {
  // The 32x32 array is slower but uses less energy and is better utilised than the 256x256 one.
  CommandOutput run =
      diff(report("tpu") + " " + report("edge") +
           " --allow-different --fail-on energy:+5%,utilization:-2%" + " --fail-on latency:-5%");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  run = diff(report("edge") + " " + report("tpu") + " --allow-different --fail-on utilization:-2%");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("FAIL utilization:-2%"), std::string::npos) << run.output;
}

TEST_F(DiffCliTest, OpsMatchAcrossUnitsAndUnmatchedUnitsAreListed) {
  // Directories stand for their report.json.
  const CommandOutput run = diff(path("tpu") + " " + path("edge") + " --allow-different");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("ops matched in both (8)"), std::string::npos) << run.output;
  const std::size_t ffn1 = run.output.find("  ffn1 ");
  ASSERT_NE(ffn1, std::string::npos) << run.output;
  EXPECT_NE(run.output.substr(ffn1, run.output.find('\n', ffn1) - ffn1).find("mxu -> npu"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("units only in BASE: mxu"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("units only in NEW: npu"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("result: no --fail-on rules given"), std::string::npos);
  // deterministic
  EXPECT_EQ(run.output, diff(path("tpu") + " " + path("edge") + " --allow-different").output);
}

TEST_F(DiffCliTest, OutWritesTheChosenFormatAndPrintsTheRuleResults) {
  CommandOutput run = diff(report("tpu") + " " + report("edge") + " --allow-different" +
                           " --format json --fail-on latency:+5% --out " + path("diff/d.json"));
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("FAIL latency:+5%"), std::string::npos) << run.output;
  const nlohmann::json json = nlohmann::json::parse(read_file(path("diff/d.json")));
  EXPECT_EQ(json["schema"], "polyarch.diff/1");
  EXPECT_TRUE(json["regression"].get<bool>());
  EXPECT_EQ(json["ops"].size(), 8u);
  EXPECT_EQ(json["units_only_in_new"][0], "npu");

  run = diff(report("tpu") + " " + report("edge") + " --allow-different --format markdown --out " +
             path("d.md"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(read_file(path("d.md")).rfind("## polyarch diff\n", 0), 0u);
}

TEST_F(DiffCliTest, BadInputExitsTwoNamingTheFileOrFlagAndWritesNothing) {
  write("not.json", "{ \"schema\": ");
  write("other.json", "{\"schema\": \"polyarch.sweep/1\"}");
  const std::string out = " --out " + path("out/d.txt");
  const std::string tpu = report("tpu");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {path("missing.json") + " " + tpu, "missing.json: cannot open report file"},
      {tpu + " " + path("not.json"), "not.json: not a JSON file"},
      {path("other.json") + " " + tpu, "unsupported schema \"polyarch.sweep/1\""},
      {tpu + " " + tpu + " --fail-on latncy:+5%", "did you mean 'latency'?"},
      {tpu + " " + tpu + " --fail-on latency:5%", "--fail-on: 'latency:5%': threshold"},
      {tpu + " " + tpu + " --fail-on latency:+5x%", "unknown unit 'x%' in threshold '+5x%'"},
      {tpu + " " + tpu + " --fail-on latency:+2", "threshold '+2' has no unit"},
      {tpu + " " + report("edge"), "--allow-different"},
      {tpu + " " + tpu + " --fail-on nosuchop.latency:+5%", "no op named 'nosuchop'"},
      {tpu + " " + tpu + " --format html", "--format expects text, json or markdown"},
      {tpu, "diff expects two reports"},
  };
  for (const auto& [arguments, message] : cases) {
    const CommandOutput run = diff(arguments + out);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(message), std::string::npos) << arguments << "\n" << run.output;
    EXPECT_FALSE(fs::exists(path("out"))) << arguments;
  }
}

TEST_F(DiffCliTest, ReportsOfDifferentArchitecturesAreRefusedUnlessAllowed) {
  CommandOutput run = diff(report("tpu") + " " + report("edge") + " --fail-on latency:+5%");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("arch 'tpu-v1-like'"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("arch 'edge-os-32x32'"), std::string::npos) << run.output;
  run = diff(report("tpu") + " " + report("edge") + " --fail-on latency:+5% --allow-different");
  EXPECT_EQ(run.exit_code, 3) << run.output;
}

TEST_F(DiffCliTest, HelpDocumentsTheExitCodes) {
  const CommandOutput run = diff("--help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("3 a --fail-on rule failed"), std::string::npos) << run.output;
}

}  // namespace
