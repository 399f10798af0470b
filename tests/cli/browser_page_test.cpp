// report.html and dashboard.html in a real browser: tests/cli/browser/check_page.js loads each
// page in headless Chromium through playwright-core and checks for console errors and the
// number of marks each chart drew, saving a screenshot (in the test's scratch directory, or
// $POLYARCH_SCREENSHOTS when set). Skipped unless /usr/bin/chromium, node and playwright-core
// (npm, global or local) are all installed; `.ci/run` installs them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

// NODE_PATH lets require() find a globally installed playwright-core.
const char* const kNode = "NODE_PATH=\"$(npm root -g 2>/dev/null)\" node";

bool browser_available() {
  if (!std::filesystem::exists("/usr/bin/chromium")) return false;
  std::string probe = std::string(kNode) + " -e \"require('playwright-core')\" >/dev/null 2>&1";
  return std::system(probe.c_str()) == 0;
}

class BrowserPageTest : public polyarch::test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    if (!browser_available()) GTEST_SKIP() << "chromium, node or playwright-core missing";
  }
  // Runs check_page.js; its output goes into the failure message.
  void check(const std::string& page, const std::string& shot, const nlohmann::json& marks) {
    const char* shots = std::getenv("POLYARCH_SCREENSHOTS");
    std::string shot_path = shots != nullptr ? std::string(shots) + "/" + shot : path(shot);
    std::string command = std::string(kNode) + " " +
                          source_path("tests/cli/browser/check_page.js") + " " + page + " " +
                          shot_path + " '" + marks.dump() + "' > " + path("check.log") + " 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << read_file(path("check.log"));
    EXPECT_TRUE(std::filesystem::exists(shot_path));
  }
};

TEST_F(BrowserPageTest, ReportHtmlDrawsEveryChartWithoutErrors) {
  auto run = run_polyarch("run --quiet --arch " + source_path("configs/arch/mixed_soc.yaml") +
                          " --workload " + source_path("workloads/bert_base_gemms.yaml") +
                          " --out " + path("run"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto report = nlohmann::json::parse(read_file(path("run/report.json")));
  int rooflines = 0;
  for (const auto& op : report["ops"]) {
    const auto& roofline = op["roofline"];
    if (roofline.is_object() && roofline.value("ops_per_byte", 0.0) > 0 &&
        roofline.value("attained_flops_per_s", 0.0) > 0) {
      ++rooflines;
    }
  }
  const int blocks = static_cast<int>(report["thermal"]["celsius"].size());
  int energy_ops = 0;
  for (const auto& op : report["ops"]) energy_ops += op["energy_j"].is_number() ? 1 : 0;
  int energy_actions = 0;
  for (const auto& unit : report["units"]) {
    if (!unit["energy_by_action"].is_object()) continue;
    for (const auto& [action, joules] : unit["energy_by_action"].items()) {
      energy_actions += joules.get<double>() > 0 ? 1 : 0;
    }
  }
  EXPECT_GT(energy_ops, 0);
  EXPECT_GT(energy_actions, 0);
  check(path("run/report.html"), "report.png",
        {{"#latency svg", report["ops"].size()},
         {"#energy-ops svg", energy_ops},
         {"#energy-units svg", energy_actions},
         {"#roofline svg", rooflines},
         {"#power svg", report["power_trace"]["watts"].size()},
         {"#temperature svg", blocks},
         {"#floorplan svg", blocks},
         {"#mappings table", report["ops"].size()}});
}

TEST_F(BrowserPageTest, DashboardHtmlDrawsEveryPointAndRow) {
  write("arch.yaml",
        "name: small\nclock_ghz: 1.0\ntechnology: 28nm\nmemory:\n"
        "  dram: {bandwidth_gbps: 16, latency_ns: 50}\n"
        "units:\n  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n");
  write("a.yaml", "layers:\n  - {name: proj, op: gemm, m: 64, n: 64, k: 100}\n");
  write("b.yaml", "layers:\n  - {name: fc, op: gemm, m: 32, n: 128, k: 64}\n");
  write("sweep.yaml",
        "base: arch.yaml\nparameters:\n  units.mxu.rows: [4, 8, 16]\n"
        "  units.mxu.dataflow: [os, ws]\nworkloads: [a.yaml, b.yaml]\n"
        "objectives: {latency_s: min, energy_j: min}\n");
  auto sweep = run_polyarch("sweep " + path("sweep.yaml") + " --out " + path("out"));
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  check(path("out/dashboard.html"), "dashboard.png", {{"#pareto svg", 6}, {"#points", 12}});
}

}  // namespace
