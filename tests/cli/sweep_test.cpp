// `polyarch sweep` end to end through the binary: the results database, resume, SIGKILL in the
// middle of a sweep, determinism across runs and -j, and `validate` on sweep files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sweep/sqlite_db.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using polyarch::sweep::SqliteDatabase;
using polyarch::sweep::SqliteStatement;
using polyarch::sweep::SqlValue;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

// Every row of a query as text, for comparing tables between runs.
std::vector<std::string> rows(const fs::path& database, const std::string& sql) {
  SqliteDatabase db(database);
  SqliteStatement query = db.prepare(sql);
  std::vector<std::string> all;
  while (query.step()) {
    std::string row;
    for (int i = 0; i < query.column_count(); ++i) row += query.column_text(i) + "|";
    all.push_back(row);
  }
  return all;
}

int64_t count(const fs::path& database, const std::string& sql) {
  SqliteDatabase db(database);
  SqliteStatement query = db.prepare(sql);
  return query.step() ? query.column_int(0) : -1;
}

class SweepCliTest : public polyarch::test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("arch.yaml", R"(name: small
clock_ghz: 1.0
technology: 28nm
memory:
  dram: {bandwidth_gbps: 16, latency_ns: 50}
units:
  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}
)");
    write("layers.yaml", R"(layers:
  - {name: proj, op: gemm, m: 64, n: 64, k: 100}
  - {name: c1, op: conv2d, n: 1, c: 3, h: 16, w: 16, k: 8, r: 3, s: 3, stride: 1, pad: 1}
)");
    // 4 x 3 x 2 = 24 points; the constraint drops the three 16x16 ones: 21 run.
    write("sweep.yaml", R"(base: arch.yaml
parameters:
  units.mxu.rows: {from: 4, to: 16, step: 4}
  units.mxu.dataflow: [os, ws, is]
  units.mxu.cols: [8, 16]
constraints:
  - rows * cols < 256
workloads: [layers.yaml]
objectives: {latency_s: min, energy_j: min}
)");
  }
  CommandOutput sweep(const std::string& out, const std::string& extra = "") {
    return run_polyarch("sweep " + path("sweep.yaml") + " --out " + path(out) + " " + extra);
  }
};

// The rows that must not depend on timing or -j: everything except wall_s and timestamps.
std::vector<std::string> stable_rows(const fs::path& database) {
  std::vector<std::string> all = rows(
      database,
      "SELECT point_id, workload_id, total_cycles, latency_s, energy_j, avg_power_w, "
      "dram_bytes_read, dram_bytes_written, op_count FROM results ORDER BY point_id, workload_id");
  for (const std::string& row :
       rows(database, "SELECT * FROM op_results ORDER BY point_id, workload_id, op_index")) {
    all.push_back(row);
  }
  for (const std::string& row : rows(database, "SELECT * FROM points ORDER BY point_id")) {
    all.push_back(row);
  }
  for (const std::string& row : rows(database, "SELECT * FROM pareto ORDER BY point_id")) {
    all.push_back(row);
  }
  return all;
}

TEST_F(SweepCliTest, WritesEveryTableAndPrintsTheParetoFront) {
  CommandOutput run = sweep("out");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("21 points (3 rejected by constraints)"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("pareto front"), std::string::npos) << run.output;
  fs::path database = dir_ / "out/results.sqlite";
  EXPECT_EQ(rows(database, "PRAGMA journal_mode"), (std::vector<std::string>{"wal|"}));
  EXPECT_EQ(rows(database, "SELECT value FROM meta WHERE key = 'schema'"),
            (std::vector<std::string>{"polyarch.sweep/1|"}));
  EXPECT_EQ(count(database, "SELECT count(*) FROM points"), 21);
  EXPECT_EQ(count(database, "SELECT count(*) FROM results"), 21);
  EXPECT_EQ(count(database, "SELECT count(*) FROM op_results"), 42);
  EXPECT_EQ(count(database, "SELECT count(*) FROM errors"), 0);
  EXPECT_EQ(count(database, "SELECT count(*) FROM sweeps WHERE polyarch_version != ''"), 1);
  // Parameters are columns named by their key paths; values keep their types.
  EXPECT_EQ(count(database,
                  "SELECT count(*) FROM points WHERE \"units.mxu.rows\" * "
                  "\"units.mxu.cols\" >= 256"),
            0);
  EXPECT_EQ(count(database, "SELECT count(*) FROM op_results WHERE macs <= 0"), 0);
  int64_t front = count(database, "SELECT count(*) FROM pareto");
  EXPECT_GE(front, 1);
  EXPECT_LT(front, 21);
  // The fastest point (the least energy among equally fast ones) is on the front by definition.
  EXPECT_EQ(count(database,
                  "SELECT count(*) FROM pareto WHERE point_id = (SELECT point_id FROM results "
                  "ORDER BY latency_s, energy_j, point_id LIMIT 1)"),
            1);
}

TEST_F(SweepCliTest, RerunningSkipsCompletedPointsAndAddsNoRows) {
  ASSERT_EQ(sweep("out").exit_code, 0);
  CommandOutput again = sweep("out", "--resume");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("21 already done, 0 to run"), std::string::npos) << again.output;
  fs::path database = dir_ / "out/results.sqlite";
  EXPECT_EQ(count(database, "SELECT count(*) FROM results"), 21);
  EXPECT_EQ(count(database, "SELECT count(*) FROM op_results"), 42);
  EXPECT_EQ(count(database, "SELECT count(*) FROM sweeps"), 2);
  // A missing database cannot be resumed.
  EXPECT_EQ(sweep("elsewhere", "--resume").exit_code, 2);
}

TEST_F(SweepCliTest, ResultsAreIdenticalAcrossRunsAndJobCounts) {
  ASSERT_EQ(sweep("serial", "-j 1").exit_code, 0);
  ASSERT_EQ(sweep("parallel", "-j 2").exit_code, 0);
  ASSERT_EQ(sweep("parallel_again", "-j2").exit_code, 0);
  std::vector<std::string> serial = stable_rows(dir_ / "serial/results.sqlite");
  EXPECT_EQ(serial.size(), 21u + 42u + 21u +
                               static_cast<std::size_t>(count(dir_ / "serial/results.sqlite",
                                                              "SELECT count(*) FROM pareto")));
  EXPECT_EQ(serial, stable_rows(dir_ / "parallel/results.sqlite"));
  EXPECT_EQ(serial, stable_rows(dir_ / "parallel_again/results.sqlite"));
}

TEST_F(SweepCliTest, SigkillMidSweepLosesNothingCommittedAndResumeCompletes) {
  // ResNet-50's 54 layers make each point take long enough to kill the sweep part-way.
  write("sweep.yaml",
        "base: arch.yaml\nparameters:\n"
        "  units.mxu.rows: {from: 4, to: 32, step: 4}\n"
        "  units.mxu.cols: [8, 16]\n  units.mxu.dataflow: [os, ws]\n"
        "workloads: [" +
            source_path("workloads/resnet50_layers.yaml") + "]\n");
  fs::path out = dir_ / "out";
  fs::path database = out / "results.sqlite";
  std::vector<std::string> argv_text = {
      POLYARCH_CLI, "sweep", path("sweep.yaml"), "--out", out.string(), "-j", "2"};
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, POLYARCH_CLI, &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);

  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int64_t seen = 0;
  while (seen < 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (!fs::exists(database)) continue;
    try {
      seen = count(database, "SELECT count(*) FROM results");
    } catch (const std::exception&) {
      seen = 0;  // the tables may not exist yet
    }
  }
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  int64_t after_kill = count(database, "SELECT count(*) FROM results");
  EXPECT_GE(after_kill, 1);
  EXPECT_LT(after_kill, 32) << "the sweep finished before it was killed";
  // Every committed result has all of its op rows and no op row is orphaned.
  EXPECT_EQ(count(database,
                  "SELECT count(*) FROM results r WHERE op_count != (SELECT count(*) FROM "
                  "op_results o WHERE o.point_id = r.point_id AND o.workload_id = r.workload_id)"),
            0);
  EXPECT_EQ(count(database, "SELECT count(*) FROM results WHERE op_count != 54"), 0);
  EXPECT_EQ(count(database,
                  "SELECT count(*) FROM op_results o WHERE NOT EXISTS (SELECT 1 FROM results r "
                  "WHERE r.point_id = o.point_id AND r.workload_id = o.workload_id)"),
            0);

  CommandOutput resumed =
      run_polyarch("sweep " + path("sweep.yaml") + " --out " + out.string() + " -j 2 --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find(std::to_string(after_kill) + " already done"), std::string::npos)
      << resumed.output;
  EXPECT_EQ(count(database, "SELECT count(*) FROM results"), 32);
  EXPECT_EQ(count(database, "SELECT count(DISTINCT point_id) FROM results"), 32);
  EXPECT_EQ(count(database, "SELECT count(*) FROM op_results"), 32 * 54);
}

TEST_F(SweepCliTest, ValidateAcceptsSweepFilesAndReportsErrorsWithLines) {
  CommandOutput ok = run_polyarch("validate " + path("sweep.yaml"));
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("sweep, 21 point(s) (3 rejected by constraints)"), std::string::npos)
      << ok.output;
  write("bad.yaml",
        "base: arch.yaml\nparameters:\n  units.mxu.rows: [8]\n"
        "constraints:\n  - rows * colums < 256\nworkloads: [layers.yaml]\n");
  CommandOutput bad = run_polyarch("validate " + path("bad.yaml"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("bad.yaml:5:"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("did you mean 'cols'"), std::string::npos) << bad.output;
  EXPECT_EQ(run_polyarch("sweep " + path("bad.yaml") + " --out " + path("o")).exit_code, 2);
}

TEST_F(SweepCliTest, ShippedSweepValidates) {
  CommandOutput ok =
      run_polyarch("validate " + source_path("configs/sweeps/systolic_array_shapes.yaml"));
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("270 point(s)"), std::string::npos) << ok.output;
}

TEST_F(SweepCliTest, BadJobCountIsBadInput) {
  EXPECT_EQ(sweep("out", "-j 0").exit_code, 2);
  EXPECT_EQ(sweep("out", "-j x").exit_code, 2);
}

}  // namespace
