// A sweep through the binary with every derived metric kept, then `sweep show` of one point and
// `diff` of the sweep's database against its own points.csv: the derived metrics agree with the
// workload's MACs and the other columns, the shown point reruns to the stored latency (from its
// written arch file too), and the sweep gate matches points by id.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/csv_writer.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::reports::parse_csv;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;
using Table = std::vector<std::vector<std::string>>;

// small_net's MACs: stem 16x16x16 outputs x 27 taps, head 2x16x10x256, layer2 16x8x3 x 3 taps.
constexpr double kSmallNetMacs = 110592 + 81920 + 1152;

class SweepShowTest : public polyarch::test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("sweep.yaml",
          "base: " + source_path("configs/arch/edge_os_32x32.yaml") +
              "\nparameters:\n  units.npu.rows: [8, 16]\nworkloads: [" +
              source_path("tests/data/layer_list/small_net.yaml") +
              "]\nobjectives: {latency_s: min, energy_j: min}\n"
              "keep: [total_cycles, latency_s, energy_j, avg_power_w, dram_bytes_read, "
              "dram_bytes_written, utilization, edp_js, tops_per_w, peak_temp_c, "
              "energy_by_action, ops]\n");
    const CommandOutput sweep =
        run_polyarch("sweep " + path("sweep.yaml") + " --no-cache --out " + path("sweep"));
    ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
    points_ = parse_csv(read_file(dir_ / "sweep/points.csv"));
    ASSERT_EQ(points_.size(), 3u);
  }
  std::string cell(std::size_t row, const std::string& column) const {
    const auto& header = points_[0];
    const auto found = std::find(header.begin(), header.end(), column);
    EXPECT_NE(found, header.end()) << column;
    return found == header.end() ? "" : points_[row][found - header.begin()];
  }
  double number(std::size_t row, const std::string& column) const {
    return std::stod(cell(row, column));
  }
  Table points_;
};

TEST_F(SweepShowTest, DerivedMetricsFollowFromTheWorkloadAndTheOtherColumns) {
  for (std::size_t row = 1; row < points_.size(); ++row) {
    const double energy_j = number(row, "energy_j");
    const double latency_s = number(row, "latency_s");
    EXPECT_NEAR(number(row, "edp_js"), energy_j * latency_s, 1e-12 * energy_j * latency_s);
    EXPECT_NEAR(number(row, "tops_per_w"), 2.0 * kSmallNetMacs / energy_j / 1e12,
                1e-9 * number(row, "tops_per_w"));
    const double utilization = number(row, "utilization");
    EXPECT_GT(utilization, 0.0);
    EXPECT_LE(utilization, 1.0);
    EXPECT_GT(number(row, "peak_temp_c"), 0.0);
    double actions_j = 0.0;
    const nlohmann::json actions = nlohmann::json::parse(cell(row, "energy_by_action"));
    for (const auto& [action, joules] : actions.items()) actions_j += joules.get<double>();
    EXPECT_NEAR(actions_j, energy_j, 1e-9 * energy_j);
  }
}

TEST_F(SweepShowTest, ShowWritesThePointsArchFileAndReportsThatRerunToTheStoredLatency) {
  const std::string point = cell(1, "point_id");
  const CommandOutput show =
      run_polyarch("sweep show " + path("sweep") + " " + point + " --out " + path("shown"));
  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("the sweep stored"), std::string::npos) << show.output;
  const nlohmann::json report =
      nlohmann::json::parse(read_file(dir_ / "shown/small_net/report.json"));
  EXPECT_DOUBLE_EQ(report["summary"]["latency_s"].get<double>(), number(1, "latency_s"));
  EXPECT_TRUE(std::filesystem::exists(dir_ / "shown/small_net/report.html"));
  // The written arch file is an ordinary one: `run` on it gives the same latency.
  const std::string arch = read_file(dir_ / "shown/arch.yaml");
  EXPECT_NE(arch.find("rows: " + cell(1, "units.npu.rows")), std::string::npos) << arch;
  const CommandOutput run =
      run_polyarch("run --quiet --no-cache --arch " + path("shown/arch.yaml") + " --workload " +
                   source_path("tests/data/layer_list/small_net.yaml") + " --out " + path("rerun"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_DOUBLE_EQ(
      nlohmann::json::parse(read_file(dir_ / "rerun/report.json"))["summary"]["latency_s"]
          .get<double>(),
      number(1, "latency_s"));

  const CommandOutput unknown =
      run_polyarch("sweep show " + path("sweep") + " nope --out " + path("none"));
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("no point 'nope' in this sweep (2 points, e.g. "),
            std::string::npos)
      << unknown.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "none"));
}

TEST_F(SweepShowTest, DiffGatesEveryPointOfTheDatabaseAgainstAPointsCsv) {
  const std::string rules = " --fail-on latency:+1%,utilization:-1pp";
  CommandOutput same =
      run_polyarch("diff " + path("sweep") + " " + path("sweep/points.csv") + rules);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_NE(same.output.find("results matched in both (2)"), std::string::npos) << same.output;
  // A copy with the first point 10% slower fails on that point.
  Table slower = points_;
  const auto& header = slower[0];
  const std::size_t latency = std::find(header.begin(), header.end(), "latency_s") - header.begin();
  slower[1][latency] = polyarch::reports::csv_number(1.1 * number(1, "latency_s"));
  std::string csv;
  for (const auto& row : slower) {
    std::vector<std::string> fields;
    for (const std::string& field : row) fields.push_back(polyarch::reports::csv_field(field));
    csv += polyarch::reports::csv_row(fields);
  }
  write("slower.csv", csv);
  const CommandOutput gate =
      run_polyarch("diff " + path("sweep") + " " + path("slower.csv") + rules);
  EXPECT_EQ(gate.exit_code, 3) << gate.output;
  EXPECT_NE(gate.output.find("FAIL latency:+1%: point " + cell(1, "point_id") + " on small_net"),
            std::string::npos)
      << gate.output;
  write("report.json", "{\"schema\": \"polyarch.report/1\"}");
  const CommandOutput mixed = run_polyarch("diff " + path("sweep") + " " + path("report.json"));
  EXPECT_EQ(mixed.exit_code, 2) << mixed.output;
  EXPECT_NE(mixed.output.find("diff compares two reports or two sweeps"), std::string::npos)
      << mixed.output;
}

TEST_F(SweepShowTest, AnUnknownMetricListsEveryValidOne) {
  write("bad.yaml", "base: " + source_path("configs/arch/edge_os_32x32.yaml") +
                        "\nparameters:\n  units.npu.rows: [8]\nworkloads: [" +
                        source_path("tests/data/layer_list/small_net.yaml") +
                        "]\nkeep: [latncy_s]\n");
  const CommandOutput validate = run_polyarch("validate " + path("bad.yaml"));
  EXPECT_EQ(validate.exit_code, 2) << validate.output;
  EXPECT_NE(validate.output.find(
                "unknown metric 'latncy_s'; did you mean 'latency_s'? (valid: total_cycles, "
                "latency_s, energy_j, avg_power_w, dram_bytes_read, dram_bytes_written, "
                "utilization, edp_js, tops_per_w, peak_temp_c, energy_by_action, ops)"),
            std::string::npos)
      << validate.output;
}

}  // namespace
