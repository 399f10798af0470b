// The CSV exports through the binary: `polyarch run`'s ops.csv and a sweep's points.csv and
// op_results.csv parse as RFC 4180, carry the database's numbers exactly, and open in pandas
// when python3 has it (SweepExportPandas.*, skipped otherwise).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "reports/csv_writer.h"
#include "sweep/sqlite_db.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using polyarch::reports::parse_csv;
using polyarch::sweep::SqliteDatabase;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using Table = std::vector<std::vector<std::string>>;

class SweepExportTest : public polyarch::test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("arch.yaml",
          "name: small\nclock_ghz: 1.0\ntechnology: 28nm\nmemory:\n"
          "  dram: {bandwidth_gbps: 16, latency_ns: 50}\n"
          "units:\n  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n");
    // A layer name with a comma and quotes exercises the quoting end to end.
    write("layers.yaml",
          "layers:\n  - {name: 'proj, \"q\"', op: gemm, m: 64, n: 64, k: 100}\n"
          "  - {name: c1, op: conv2d, n: 1, c: 3, h: 16, w: 16, k: 8, r: 3, s: 3, stride: 1, "
          "pad: 1}\n");
    write("sweep.yaml",
          "base: arch.yaml\nparameters:\n  units.mxu.rows: [4, 8, 12]\n"
          "  units.mxu.dataflow: [os, ws]\nworkloads: [layers.yaml]\n"
          "objectives: {latency_s: min, energy_j: min}\n");
  }
  static std::size_t column(const Table& table, const std::string& name) {
    auto it = std::find(table[0].begin(), table[0].end(), name);
    EXPECT_NE(it, table[0].end()) << name;
    return static_cast<std::size_t>(it - table[0].begin());
  }
  static void expect_rectangular(const Table& table) {
    for (const auto& record : table) EXPECT_EQ(record.size(), table[0].size());
  }
};

TEST_F(SweepExportTest, SweepWritesPointsAndOpResultsCsvMatchingTheDatabase) {
  CommandOutput run = run_polyarch("sweep " + path("sweep.yaml") + " --out " + path("out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  Table points = parse_csv(read_file(dir_ / "out/points.csv"));
  ASSERT_EQ(points.size(), 1u + 6u);
  expect_rectangular(points);
  EXPECT_EQ(points[0][0], "point_id");
  EXPECT_EQ(points[0][1], "units.mxu.rows");
  EXPECT_EQ(points[0][2], "units.mxu.dataflow");
  EXPECT_EQ(points[0].back(), "pareto");
  EXPECT_EQ(std::count(points[0].begin(), points[0].end(), "wall_s"), 0);
  // Numbers read back equal to what SQLite holds, bit for bit.
  SqliteDatabase db(dir_ / "out/results.sqlite");
  auto select = db.prepare("SELECT latency_s, energy_j FROM results WHERE point_id = ?");
  for (std::size_t row = 1; row < points.size(); ++row) {
    select.reset();
    select.bind(1, points[row][0]);
    ASSERT_TRUE(select.step());
    EXPECT_EQ(std::stod(points[row][column(points, "latency_s")]), select.column_double(0));
    EXPECT_EQ(std::stod(points[row][column(points, "energy_j")]), select.column_double(1));
  }
  Table ops = parse_csv(read_file(dir_ / "out/op_results.csv"));
  ASSERT_EQ(ops.size(), 1u + 12u);
  expect_rectangular(ops);
  EXPECT_EQ(ops[1][column(ops, "name")], "proj, \"q\"");
  EXPECT_EQ(ops[1][column(ops, "workload")], ops[2][column(ops, "workload")]);
}

TEST_F(SweepExportTest, RunOpsCsvParsesWithOneRowPerOp) {
  CommandOutput run = run_polyarch("run --quiet --arch " + path("arch.yaml") + " --workload " +
                                   path("layers.yaml") + " --out " + path("run"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  Table ops = parse_csv(read_file(dir_ / "run/ops.csv"));
  ASSERT_EQ(ops.size(), 3u);
  expect_rectangular(ops);
  EXPECT_EQ(ops[1][0], "proj, \"q\"");
  EXPECT_GT(std::stod(ops[1][column(ops, "latency_s")]), 0.0);
}

// pandas is what most readers of these files use; the test runs only where python3 has it.
class SweepExportPandas : public SweepExportTest {};

TEST_F(SweepExportPandas, ReadCsvLoadsEveryExportWithTheExpectedShape) {
  // The first python3 on PATH may be a private one (pyenv) without Debian's python3-pandas.
  std::string python;
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    std::string probe = std::string(candidate) + " -c 'import pandas' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) {
      python = candidate;
      break;
    }
  }
  if (python.empty()) GTEST_SKIP() << "python3 with pandas is not installed";
  ASSERT_EQ(run_polyarch("sweep " + path("sweep.yaml") + " --out " + path("out")).exit_code, 0);
  ASSERT_EQ(run_polyarch("run --quiet --arch " + path("arch.yaml") + " --workload " +
                         path("layers.yaml") + " --out " + path("run"))
                .exit_code,
            0);
  write("check.py",
        "import sys, pandas\n"
        "p = pandas.read_csv(sys.argv[1]); o = pandas.read_csv(sys.argv[2])\n"
        "r = pandas.read_csv(sys.argv[3])\n"
        "assert p.shape[0] == 6 and o.shape[0] == 12 and r.shape[0] == 2, (p.shape, o.shape)\n"
        "assert p['latency_s'].dtype.kind == 'f' and p['units.mxu.rows'].dtype.kind == 'i'\n"
        "assert r['name'][0] == 'proj, \"q\"'\n");
  std::string command = python + " " + path("check.py") + " " + path("out/points.csv") + " " +
                        path("out/op_results.csv") + " " + path("run/ops.csv");
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

}  // namespace
