// `polyarch sweep --shard i/N` and `polyarch merge` through the binary: shards cover the
// points once, merging them reproduces an unsharded run row for row (results, op rows,
// points, Pareto front, CSV exports), overlapping inputs are deduplicated and other sweeps'
// databases are refused without writing anything. `mpirun -n 2` (when polyarch was built with
// OpenMPI) reproduces the same rows.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sweep/mpi_world.h"
#include "sweep/sqlite_db.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

namespace fs = std::filesystem;
using polyarch::sweep::SqliteDatabase;
using polyarch::sweep::SqliteStatement;
using polyarch::test_support::CommandOutput;
using polyarch::test_support::read_file;
using polyarch::test_support::run_command;
using polyarch::test_support::run_polyarch;

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

// Everything that must not depend on how the sweep was split: all but wall_s and timestamps.
std::vector<std::string> stable_rows(const fs::path& database) {
  std::vector<std::string> all;
  for (const char* sql :
       {"SELECT point_id, workload_id, total_cycles, latency_s, energy_j, avg_power_w, "
        "dram_bytes_read, dram_bytes_written, op_count FROM results ORDER BY 1, 2",
        "SELECT * FROM op_results ORDER BY point_id, workload_id, op_index",
        "SELECT * FROM points ORDER BY point_id", "SELECT * FROM pareto ORDER BY point_id",
        "SELECT id, path, sha256, name FROM workloads ORDER BY id",
        "SELECT * FROM errors ORDER BY point_id"}) {
    for (std::string& row : rows(database, sql)) all.push_back(std::move(row));
  }
  return all;
}

class SweepMergeTest : public polyarch::test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("arch.yaml",
          "name: small\nclock_ghz: 1.0\ntechnology: 28nm\nmemory:\n"
          "  dram: {bandwidth_gbps: 16, latency_ns: 50}\n"
          "units:\n  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n");
    write("a.yaml", "layers:\n  - {name: proj, op: gemm, m: 64, n: 64, k: 100}\n");
    write("b.yaml",
          "layers:\n  - {name: c1, op: conv2d, n: 1, c: 3, h: 16, w: 16, k: 8, r: 3, s: 3, "
          "stride: 1, pad: 1}\n");
    // 4 x 3 = 12 points x 2 workloads; 5 shards do not divide 12 evenly.
    write("sweep.yaml",
          "base: arch.yaml\nparameters:\n  units.mxu.rows: {from: 4, to: 16, step: 4}\n"
          "  units.mxu.dataflow: [os, ws, is]\nworkloads: [a.yaml, b.yaml]\n"
          "objectives: {latency_s: min, energy_j: min, avg_power_w: min}\n");
  }
  CommandOutput sweep(const std::string& extra) {
    return run_polyarch("sweep " + path("sweep.yaml") + " " + extra);
  }
  std::string shard_db(int index, int count) const {
    return path("shards/results-shard-" + std::to_string(index) + "-of-" + std::to_string(count) +
                ".sqlite");
  }
};

TEST_F(SweepMergeTest, ShardsMergedEqualAnUnshardedRun) {
  ASSERT_EQ(sweep("--out " + path("whole")).exit_code, 0);
  std::string inputs;
  int64_t shard_rows = 0;
  for (int i = 0; i < 5; ++i) {
    CommandOutput shard = sweep("--out " + path("shards") + " --shard " + std::to_string(i) + "/5");
    ASSERT_EQ(shard.exit_code, 0) << shard.output;
    shard_rows += static_cast<int64_t>(rows(shard_db(i, 5), "SELECT 1 FROM results").size());
    inputs += " " + shard_db(i, 5);
  }
  EXPECT_EQ(shard_rows, 24);                             // every pair in exactly one shard
  EXPECT_FALSE(fs::exists(dir_ / "shards/points.csv"));  // exports wait for the merge
  CommandOutput merge = run_polyarch("merge " + path("merged/results.sqlite") + inputs);
  ASSERT_EQ(merge.exit_code, 0) << merge.output;
  EXPECT_NE(merge.output.find("12 points, 24 results (0 duplicate(s) skipped)"), std::string::npos)
      << merge.output;
  std::vector<std::string> whole = stable_rows(dir_ / "whole/results.sqlite");
  EXPECT_EQ(whole, stable_rows(dir_ / "merged/results.sqlite"));
  EXPECT_FALSE(rows(dir_ / "whole/results.sqlite", "SELECT * FROM pareto").empty());
  EXPECT_EQ(read_file(dir_ / "whole/points.csv"), read_file(dir_ / "merged/points.csv"));
  EXPECT_EQ(read_file(dir_ / "whole/op_results.csv"), read_file(dir_ / "merged/op_results.csv"));
  EXPECT_EQ(read_file(dir_ / "whole/dashboard.html"), read_file(dir_ / "merged/dashboard.html"));
  EXPECT_EQ(rows(dir_ / "merged/results.sqlite", "SELECT count(*) FROM sweeps"),
            (std::vector<std::string>{"5|"}));
}

TEST_F(SweepMergeTest, TwoMpiRanksEqualAnUnshardedRun) {
  if (!polyarch::sweep::MpiWorld::available() ||
      run_command("command -v mpirun").exit_code != 0) {
    GTEST_SKIP() << "polyarch was built without MPI or mpirun is not installed";
  }
  ASSERT_EQ(sweep("--out " + path("whole")).exit_code, 0);
  // Root may run mpirun only when it says so (CI runs as root); --oversubscribe lets two ranks
  // share a machine with fewer cores.
  const std::string mpirun =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -n 2 ";
  CommandOutput mpi = run_command(mpirun + POLYARCH_CLI + " sweep " + path("sweep.yaml") +
                                  " --out " + path("mpi") + " -j 2");
  ASSERT_EQ(mpi.exit_code, 0) << mpi.output;
  EXPECT_NE(mpi.output.find("on each of 2 MPI ranks"), std::string::npos) << mpi.output;
  EXPECT_EQ(stable_rows(dir_ / "whole/results.sqlite"), stable_rows(dir_ / "mpi/results.sqlite"));
  EXPECT_EQ(read_file(dir_ / "whole/points.csv"), read_file(dir_ / "mpi/points.csv"));

  // Rerun under MPI: every pair is already in the database, nothing runs twice.
  CommandOutput again = run_command(mpirun + POLYARCH_CLI + " sweep " + path("sweep.yaml") +
                                    " --out " + path("mpi"));
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("24 already done, 0 to run"), std::string::npos) << again.output;
  EXPECT_EQ(stable_rows(dir_ / "whole/results.sqlite"), stable_rows(dir_ / "mpi/results.sqlite"));
}

TEST_F(SweepMergeTest, OverlappingInputsAreDeduplicated) {
  ASSERT_EQ(sweep("--out " + path("shards") + " --shard 0/2").exit_code, 0);
  ASSERT_EQ(sweep("--out " + path("whole")).exit_code, 0);
  CommandOutput merge = run_polyarch("merge " + path("m.sqlite") + " " + shard_db(0, 2) + " " +
                                     path("whole/results.sqlite"));
  ASSERT_EQ(merge.exit_code, 0) << merge.output;
  EXPECT_NE(merge.output.find("24 results (12 duplicate(s) skipped)"), std::string::npos)
      << merge.output;
  EXPECT_EQ(stable_rows(dir_ / "whole/results.sqlite"), stable_rows(dir_ / "m.sqlite"));
}

TEST_F(SweepMergeTest, RefusesAnotherSweepsDatabaseAndWritesNothing) {
  ASSERT_EQ(sweep("--out " + path("one")).exit_code, 0);
  write("other.yaml",
        "base: arch.yaml\nparameters:\n  units.mxu.cols: [4, 8]\nworkloads: [a.yaml]\n"
        "objectives: {latency_s: min, energy_j: min, avg_power_w: min}\n");
  ASSERT_EQ(run_polyarch("sweep " + path("other.yaml") + " --out " + path("two")).exit_code, 0);
  CommandOutput merge = run_polyarch("merge " + path("m.sqlite") + " " +
                                     path("one/results.sqlite") + " " + path("two/results.sqlite"));
  EXPECT_EQ(merge.exit_code, 2) << merge.output;
  EXPECT_NE(merge.output.find("different sweep"), std::string::npos) << merge.output;
  EXPECT_FALSE(fs::exists(dir_ / "m.sqlite"));
  EXPECT_EQ(run_polyarch("merge " + path("m.sqlite") + " " + path("missing.sqlite")).exit_code, 2);
  EXPECT_EQ(run_polyarch("merge " + path("m.sqlite")).exit_code, 2);
}

// The acceptance sweep (shapes x dataflows x buffers on BERT and ResNet-50 layers) that
// tests/bench/bench_sweep.cpp times.
TEST_F(SweepMergeTest, ShippedSystolicShapeSweepHasAtLeast200Points) {
  CommandOutput ok = run_polyarch(
      "validate " + polyarch::test_support::source_path("configs/sweeps/systolic_shape.yaml"));
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("270 point(s)"), std::string::npos) << ok.output;
}

TEST_F(SweepMergeTest, BadShardIsBadInput) {
  for (const char* shard : {"5/5", "-1/2", "1", "a/2", "0/0", "1/2x"}) {
    EXPECT_EQ(sweep("--out " + path("o") + " --shard " + shard).exit_code, 2) << shard;
  }
}

}  // namespace
