#include "sweep/sweep_database.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace polyarch::sweep {
namespace {

namespace fs = std::filesystem;

class SweepDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ =
        fs::temp_directory_path() /
        ("polyarch_sweep_db_" +
         std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".sqlite");
    remove_database();
    spec_.file = "s.yaml";
    spec_.base_sha256 = "base";
    spec_.parameters = {{"units.mxu.rows", "rows", {}}};
    spec_.keep = sweep_summary_metrics();
    spec_.objectives = {{"latency_s", true}, {"energy_j", true}};
  }
  void TearDown() override { remove_database(); }
  void remove_database() {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path_.string() + suffix);
  }
  static SweepPoint point(const std::string& id, const std::string& rows) {
    return {id, {ConfigNode::make_scalar(rows, {})}, 1.5};
  }
  static sim::RunResult result(double latency_s, double energy_j, int ops) {
    sim::RunResult run;
    run.summary.latency_s = latency_s;
    run.summary.energy_j = energy_j;
    for (int i = 0; i < ops; ++i) {
      sim::OpResult op;
      op.name = "op" + std::to_string(i);
      run.ops.push_back(op);
    }
    return run;
  }
  int64_t count(const std::string& sql) {
    SqliteDatabase db(path_);
    SqliteStatement query = db.prepare(sql);
    query.step();
    return query.column_int(0);
  }

  fs::path path_;
  SweepSpec spec_;
};

TEST_F(SweepDatabaseTest, ResultCommitsWithItsOpsAndClearsAnEarlierError) {
  SweepDatabase database(path_, spec_);
  std::vector<int64_t> workloads = database.register_run({{"w.yaml", "abc", "w"}});
  database.insert_points({point("p1", "8")});
  database.commit_error("p1", workloads[0], "worker process killed by signal 9");
  EXPECT_EQ(count("SELECT count(*) FROM errors"), 1);
  EXPECT_TRUE(database.completed().empty());
  database.commit_result("p1", workloads[0], result(2.0, 3.0, 4), 0.1);
  EXPECT_EQ(count("SELECT count(*) FROM errors"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM op_results"), 4);
  EXPECT_EQ(count("SELECT op_count FROM results"), 4);
  EXPECT_EQ(count("SELECT \"units.mxu.rows\" FROM points"), 8);
  EXPECT_EQ(database.completed().count({"p1", workloads[0]}), 1u);
}

TEST_F(SweepDatabaseTest, ObjectivesSumOverWorkloadsAndSkipIncompletePoints) {
  SweepDatabase database(path_, spec_);
  std::vector<int64_t> workloads =
      database.register_run({{"a.yaml", "1", "a"}, {"b.yaml", "2", "b"}});
  database.insert_points({point("p1", "8"), point("p2", "16")});
  database.commit_result("p1", workloads[0], result(1.0, 10.0, 1), 0);
  database.commit_result("p1", workloads[1], result(2.0, 20.0, 1), 0);
  database.commit_result("p2", workloads[0], result(1.0, 1.0, 1), 0);
  std::vector<ObjectiveRow> rows = database.objective_rows({"p1", "p2"}, workloads);
  ASSERT_EQ(rows.size(), 1u);  // p2 lacks workload b
  EXPECT_EQ(rows[0].point_id, "p1");
  EXPECT_DOUBLE_EQ(*rows[0].values[0], 3.0);
  EXPECT_DOUBLE_EQ(*rows[0].values[1], 30.0);
  database.write_pareto(rows);
  EXPECT_EQ(count("SELECT count(*) FROM pareto"), 1);
}

TEST_F(SweepDatabaseTest, ReopeningWithOtherParametersOrBaseIsRefused) {
  { SweepDatabase database(path_, spec_); }
  { SweepDatabase same(path_, spec_); }
  SweepSpec other = spec_;
  other.parameters.push_back({"units.mxu.cols", "cols", {}});
  EXPECT_THROW(SweepDatabase(path_, other), Error);
  {
    SweepDatabase database(path_, spec_);
    database.register_run({});
  }
  SweepSpec other_base = spec_;
  other_base.base_sha256 = "changed";
  EXPECT_THROW(SweepDatabase(path_, other_base), Error);
}

// Rows of searched and configured mappings do not compare: a resume keeps the mode it began with.
TEST_F(SweepDatabaseTest, ResumingUnderAnotherMappingModeIsRefused) {
  const std::string searched = R"({"mode":"searched","searcher":"exhaustive"})";
  { SweepDatabase(path_, spec_).record_mapping_mode(searched); }
  { SweepDatabase(path_, spec_).record_mapping_mode(searched); }
  try {
    SweepDatabase(path_, spec_).record_mapping_mode(R"({"mode":"fixed"})");
    FAIL() << "a database filled with searched mappings took a fixed-mapping run";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("another --out directory"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace polyarch::sweep
