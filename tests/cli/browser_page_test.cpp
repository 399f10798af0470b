// report.html and dashboard.html in a real browser: tests/cli/browser/check_page.js loads each
// page in headless Chromium through playwright-core and checks for console errors, the number of
// marks each chart drew (counted here from report.json or the sweep), tick labels and axis
// titles with units, tooltips on hover, zoom, that the dashboard's filters update every view and
// that its report links lead to the reports `sweep show` writes; it saves a screenshot (in the
// test's scratch directory, or $POLYARCH_SCREENSHOTS when set). Skipped unless /usr/bin/chromium,
// node and playwright-core (npm, global or local) are all installed; `.ci/run` installs them.
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
  // Runs check_page.js (its header says what `expected` holds); its output goes into the
  // failure message.
  void check(const std::string& page, const std::string& shot, const nlohmann::json& expected) {
    const char* shots = std::getenv("POLYARCH_SCREENSHOTS");
    std::string shot_path = shots != nullptr ? std::string(shots) + "/" + shot : path(shot);
    write("expected.json", expected.dump());
    std::string command =
        std::string(kNode) + " " + source_path("tests/cli/browser/check_page.js") + " " + page +
        " " + shot_path + " " + path("expected.json") + " > " + path("check.log") + " 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << read_file(path("check.log"));
    EXPECT_TRUE(std::filesystem::exists(shot_path));
  }
};

// How many entries of owner's {name: number} object `key` are above zero (none when null).
int positive_entries(const nlohmann::json& owner, const char* key) {
  if (!owner.contains(key) || !owner.at(key).is_object()) return 0;
  int count = 0;
  for (const auto& [name, value] : owner.at(key).items()) count += value.get<double>() > 0 ? 1 : 0;
  return count;
}

// Whether the op is a point of its unit's roofline: it attained some FLOP/s at a known
// intensity, ops_per_byte or (a PIM unit's roofline) FLOP per bank-internal byte.
bool has_roofline_point(const nlohmann::json& op) {
  const nlohmann::json& roofline = op.at("roofline");
  if (!roofline.is_object() || roofline.value("attained_flops_per_s", 0.0) <= 0) return false;
  return roofline.value("ops_per_byte", 0.0) > 0 ||
         (roofline.value("flops", 0.0) > 0 && roofline.value("internal_bytes", 0.0) > 0);
}

// What report.json says each chart of report.html must draw, counted here from the report.
nlohmann::json expected_report_charts(const nlohmann::json& report) {
  const nlohmann::json& ops = report.at("ops");
  const nlohmann::json& units = report.at("units");
  int stall_bars = 0, op_utilizations = 0, rooflines = 0, op_actions = 0;
  std::set<std::string> units_with_traffic;
  for (const auto& op : ops) {
    stall_bars +=
        (op.at("compute_cycles").is_number() ? 1 : 0) + (op.at("stall_cycles").is_number() ? 1 : 0);
    op_utilizations += op.at("compute_utilization").is_number() ? 1 : 0;
    rooflines += has_roofline_point(op) ? 1 : 0;
    op_actions += positive_entries(op, "energy_by_action");
    const int64_t bytes =
        op.value("dram_bytes_read", int64_t{0}) + op.value("dram_bytes_written", int64_t{0});
    if (bytes > 0 && op.at("latency_s").get<double>() > 0)
      units_with_traffic.insert(op.at("unit").get<std::string>());
  }
  int unit_actions = 0;
  for (const auto& unit : units) unit_actions += positive_entries(unit, "energy_by_action");
  // One DRAM series per unit with traffic, and their sum when the SoC has several units.
  const std::size_t dram_series = units_with_traffic.size() + (units.size() > 1 ? 1 : 0);
  const std::size_t blocks = report.at("thermal").at("celsius").size();
  return {
      {"#timeline",
       {{"marks", ops.size()}, {"titles", {"time (s)", "unit"}}, {"legends", {"op kind"}}}},
      {"#compute-stall", {{"marks", stall_bars}, {"titles", {"cycles (of the op's unit clock)"}}}},
      {"#utilization",
       {{"marks", units.size() + op_utilizations},
        {"titles", {"busy fraction", "compute utilisation"}}}},
      {"#roofline",
       {{"marks", rooflines},
        {"titles", {"arithmetic intensity (FLOP per DRAM byte)", "attained (FLOP/s)"}}}},
      {"#energy-units",
       {{"marks", unit_actions}, {"titles", {"energy (J)"}}, {"legends", {"action"}}}},
      {"#energy-ops", {{"marks", op_actions}, {"titles", {"energy (J)"}}}},
      {"#dram-bandwidth", {{"marks", dram_series}, {"titles", {"DRAM bandwidth (GB/s)"}}}},
      {"#power",
       {{"marks", report.at("power_trace").at("watts").size()}, {"titles", {"power (W)"}}}},
      {"#temperature", {{"marks", blocks}, {"titles", {"temperature (°C)"}}}},
      {"#floorplan", {{"marks", blocks}, {"titles", {"x (mm)", "y (mm)"}}, {"legends", {"°C"}}}}};
}

TEST_F(BrowserPageTest, ReportHtmlDrawsEveryChartWithAxesTooltipsAndZoom) {
  auto run = run_polyarch("run --quiet --arch " + source_path("configs/arch/mixed_soc.yaml") +
                          " --workload " + source_path("workloads/bert_base_gemms.yaml") +
                          " --out " + path("run"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto report = nlohmann::json::parse(read_file(path("run/report.json")));
  nlohmann::json charts = expected_report_charts(report);
  // The run draws something in every chart: a zero here would make the check vacuous.
  for (const auto& [id, chart] : charts.items()) EXPECT_GT(chart.at("marks").get<int>(), 0) << id;
  check(path("run/report.html"), "report.png",
        {{"charts", charts},
         {"tables", {{"#mappings table", report.at("ops").size()}}},
         // The first bar of the timeline is the first op; the first floorplan block the first unit.
         {"hover",
          {{{"chart", "#timeline"}, {"contains", report.at("ops").at(0).at("name")}},
           {{"chart", "#floorplan"}, {"contains", report.at("units").at(0).at("name")}}}},
         {"zoom", {"#timeline", "#roofline", "#power"}}});
}

// Every unit kind draws its roofline, every op a point: for each kind that the mixed_soc run
// above (systolic and simd ops) does not draw, a shipped arch where a GPT decode step runs ops
// on a unit of that kind.
TEST_F(BrowserPageTest, ReportHtmlDrawsTheRooflineOfEveryUnitKind) {
  for (auto [arch, kind] :
       {std::pair{"cpu64_like", "mimd"}, std::pair{"aim_gddr6_like", "pim"},
        std::pair{"plasticine_like", "dataflow"}, std::pair{"isaac_like", "crossbar"}}) {
    const std::string out = path(std::string("run_") + arch);
    auto run =
        run_polyarch("run --quiet --mapping fixed --arch " +
                     source_path(std::string("configs/arch/") + arch + ".yaml") + " --workload " +
                     source_path("workloads/gpt_decode_step.yaml") + " --out " + out);
    ASSERT_EQ(run.exit_code, 0) << arch << "\n" << run.output;
    auto report = nlohmann::json::parse(read_file(out + "/report.json"));
    std::set<std::string> units_of_kind;
    for (const auto& unit : report.at("units")) {
      if (unit.at("kind") == kind) units_of_kind.insert(unit.at("name").get<std::string>());
    }
    int points = 0, points_of_kind = 0;
    for (const auto& op : report.at("ops")) {
      if (!has_roofline_point(op)) continue;
      ++points;
      points_of_kind += units_of_kind.count(op.at("unit").get<std::string>()) > 0 ? 1 : 0;
    }
    EXPECT_EQ(points, static_cast<int>(report.at("ops").size())) << arch;
    EXPECT_GT(points_of_kind, 0) << arch << ": no op ran on its " << kind << " unit";
    check(out + "/report.html", std::string("roofline_") + arch + ".png",
          {{"charts", {{"#roofline", {{"marks", points}, {"titles", {"attained (FLOP/s)"}}}}}}});
  }
}

TEST_F(BrowserPageTest, DashboardFiltersUpdateEveryView) {
  write("arch.yaml",
        "name: small\nclock_ghz: 1.0\ntechnology: 28nm\nmemory:\n"
        "  dram: {bandwidth_gbps: 16, latency_ns: 50}\n"
        "units:\n  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n");
  write("a.yaml", "layers:\n  - {name: proj, op: gemm, m: 64, n: 64, k: 100}\n");
  write("b.yaml", "layers:\n  - {name: fc, op: gemm, m: 32, n: 128, k: 64}\n");
  write("sweep.yaml",
        "base: arch.yaml\nparameters:\n  units.mxu.rows: [4, 8, 16]\n"
        "  units.mxu.dataflow: [os, ws]\nworkloads: [a.yaml, b.yaml]\n"
        "objectives: {latency_s: min, energy_j: min, area_mm2: min}\n");
  auto sweep = run_polyarch("sweep " + path("sweep.yaml") + " --out " + path("out"));
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  // points.csv's first row is the first point the scatter draws and the table lists; its
  // report links lead to what `sweep show` writes for it.
  std::string csv = read_file(path("out/points.csv"));
  std::size_t row = csv.find('\n') + 1;
  std::string first_point = csv.substr(row, csv.find(',', row) - row);
  auto show = run_polyarch("sweep show " + path("out") + " " + first_point);
  ASSERT_EQ(show.exit_code, 0) << show.output;
  // 3 x 2 points; sensitivity: one range per (objective, parameter value): 3 x (3 + 2), and
  // 3 x (3 + 1) once the ws points are filtered out.
  const std::string latency = "latency_s (sum over workloads; objective, min)";
  const std::string energy = "energy_j (sum over workloads; objective, min)";
  check(path("out/dashboard.html"), "dashboard.png",
        {{"charts",
          {{"#pareto",
            {{"marks", 6},
             {"titles", {latency, energy}},
             {"legends", {"area_mm2 (per point; objective, min)", "Pareto"}}}},
           {"#parallel", {{"marks", 6}}},
           {"#sensitivity", {{"marks", 15}, {"titles", {"latency_s", "units.mxu.rows"}}}}}},
         {"tables", {{"#points table", 6}}},
         {"hover", {{{"chart", "#pareto"}, {"contains", first_point}}}},
         {"zoom", {"#pareto"}},
         {"links", {"#points tbody tr:first-child a"}},
         {"click",
          {{"selector", "[data-filter=\"units.mxu.dataflow=ws\"]"},
           {"charts",
            {{"#pareto", {{"marks", 3}}},
             {"#parallel", {{"marks", 3}}},
             {"#sensitivity", {{"marks", 12}}}}},
           {"tables", {{"#points table", 3}}}}}});
}

}  // namespace
