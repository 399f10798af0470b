// Sweep files: expansion order, zip groups, ranges, sampling determinism, constraints and the
// errors a user sees for a bad file.
#include "sweep/sweep_spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sweep/expand.h"
#include "tests/support/scratch_dir_test.h"

namespace polyarch::sweep {
namespace {

namespace fs = std::filesystem;

class SweepSpecTest : public polyarch::test_support::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    write("arch.yaml", R"(name: small
clock_ghz: 1.0
memory:
  dram: {bandwidth_gbps: 0, latency_ns: 0}
units:
  - name: mxu
    kind: systolic
    rows: 32
    cols: 32
    dataflow: os
)");
    write("layers.yaml", "layers:\n  - {name: proj, op: gemm, m: 64, n: 64, k: 100}\n");
  }
  // A sweep file with the common header and `body` after it.
  SweepSpec load(const std::string& body) {
    write("sweep.yaml", "base: arch.yaml\nworkloads: [layers.yaml]\n" + body);
    return load_sweep_spec(dir_ / "sweep.yaml");
  }
  static std::vector<std::string> column(const std::vector<SweepPoint>& points, std::size_t i) {
    std::vector<std::string> values;
    for (const SweepPoint& point : points) values.push_back(point.values[i].scalar());
    return values;
  }
};

TEST_F(SweepSpecTest, CartesianProductVariesTheLastParameterFastest) {
  SweepSpec spec =
      load("parameters:\n  units.mxu.rows: [8, 16]\n  units.mxu.dataflow: [os, ws, is]\n");
  std::vector<SweepPoint> points = expand_points(spec);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(column(points, 0), (std::vector<std::string>{"8", "8", "8", "16", "16", "16"}));
  EXPECT_EQ(column(points, 1), (std::vector<std::string>{"os", "ws", "is", "os", "ws", "is"}));
  std::set<std::string> ids;
  for (const SweepPoint& point : points) ids.insert(point.id);
  EXPECT_EQ(ids.size(), 6u);
}

TEST_F(SweepSpecTest, PointIdsDependOnValuesNotOnParameterOrder) {
  SweepSpec a = load("parameters:\n  units.mxu.rows: [8]\n  units.mxu.cols: [16]\n");
  SweepSpec b = load("parameters:\n  units.mxu.cols: [16]\n  units.mxu.rows: [8]\n");
  EXPECT_EQ(expand_points(a)[0].id, expand_points(b)[0].id);
  SweepSpec c = load("parameters:\n  units.mxu.cols: [8]\n  units.mxu.rows: [16]\n");
  EXPECT_NE(expand_points(a)[0].id, expand_points(c)[0].id);
}

TEST_F(SweepSpecTest, ZipGroupVariesItsMembersTogether) {
  SweepSpec spec = load(
      "parameters:\n  units.mxu.dataflow: [os, ws]\n"
      "zip:\n  - {units.mxu.rows: [8, 16, 32], units.mxu.cols: [64, 32, 16]}\n");
  std::vector<SweepPoint> points = expand_points(spec);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(column(points, 1), (std::vector<std::string>{"8", "16", "32", "8", "16", "32"}));
  EXPECT_EQ(column(points, 2), (std::vector<std::string>{"64", "32", "16", "64", "32", "16"}));
}

TEST_F(SweepSpecTest, ZipGroupOfUnequalLengthsIsAnError) {
  EXPECT_THROW(load("parameters: {}\nzip:\n  - {units.mxu.rows: [8, 16], units.mxu.cols: [8]}\n"),
               Error);
}

TEST_F(SweepSpecTest, RangesIncludeTheirEndAndKeepIntegersIntegral) {
  SweepSpec spec = load(
      "parameters:\n  units.mxu.rows: {from: 8, to: 32, step: 8}\n"
      "  memory.dram.bandwidth_gbps: {from: 0.5, to: 1.5, step: 0.5}\n");
  std::vector<SweepPoint> points = expand_points(spec);
  ASSERT_EQ(points.size(), 12u);
  EXPECT_EQ(column(points, 0)[11], "32");
  EXPECT_EQ(column(points, 1), (std::vector<std::string>{"0.5", "1", "1.5", "0.5", "1", "1.5",
                                                         "0.5", "1", "1.5", "0.5", "1", "1.5"}));
}

TEST_F(SweepSpecTest, LatinHypercubeIsDeterministicForASeedAndCoversEveryStratum) {
  std::string body =
      "sampling: {method: latin_hypercube, samples: 10, seed: 42}\n"
      "parameters:\n  units.mxu.rows: {from: 1, to: 10}\n"
      "  memory.dram.bandwidth_gbps: {from: 0, to: 100}\n";
  std::vector<SweepPoint> first = expand_points(load(body));
  std::vector<SweepPoint> second = expand_points(load(body));
  ASSERT_EQ(first.size(), 10u);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].id, second[i].id);
  // Ten strata of the integers 1..10: every value drawn exactly once.
  std::vector<std::string> rows = column(first, 0);
  EXPECT_EQ(std::set<std::string>(rows.begin(), rows.end()).size(), 10u);
  std::vector<SweepPoint> other_seed =
      expand_points(load("sampling: {method: latin_hypercube, samples: 10, seed: 43}\n"
                         "parameters:\n  units.mxu.rows: {from: 1, to: 10}\n"
                         "  memory.dram.bandwidth_gbps: {from: 0, to: 100}\n"));
  EXPECT_NE(column(first, 1), column(other_seed, 1));
}

TEST_F(SweepSpecTest, RandomSamplingDrawsFromListsAndDropsDuplicates) {
  std::string body =
      "sampling: {method: random, samples: 50, seed: 7}\n"
      "parameters:\n  units.mxu.rows: [8, 16]\n  units.mxu.dataflow: [os, ws]\n";
  std::vector<SweepPoint> points = expand_points(load(body));
  EXPECT_EQ(points.size(), 4u);  // only four distinct points exist
  EXPECT_EQ(expand_points(load(body))[0].id, points[0].id);
}

TEST_F(SweepSpecTest, ConstraintsFilterPointsAndSeeBaseValues) {
  SweepSpec spec = load(
      "parameters:\n  units.mxu.rows: [16, 32, 64]\n  units.mxu.cols: [16, 32, 64]\n"
      "constraints:\n  - rows * cols <= 1024\n  - units.mxu.rows >= cols\n"
      "  - clock_ghz == 1\n");
  SweepPlan plan = plan_sweep(spec);
  ASSERT_EQ(plan.points.size(), 4u);  // (16,16), (32,16), (32,32), (64,16)
  EXPECT_EQ(plan.rejected, 5);
  EXPECT_EQ(column(plan.points, 0), (std::vector<std::string>{"16", "32", "32", "64"}));
  EXPECT_EQ(column(plan.points, 1), (std::vector<std::string>{"16", "16", "32", "16"}));
}

TEST_F(SweepSpecTest, ConstraintsMayNameUnsweptArchValuesByTheirLastKey) {
  // Only rows is swept; `cols` is the base arch's units.mxu.cols (32).
  SweepSpec spec = load(
      "parameters:\n  units.mxu.rows: [16, 32, 64]\n"
      "constraints:\n  - rows * cols <= 1024\n");
  EXPECT_EQ(plan_sweep(spec).points.size(), 2u);
}

TEST_F(SweepSpecTest, UnknownConstraintNameNamesTheSweepFileLineWithASuggestion) {
  try {
    load("parameters:\n  units.mxu.rows: [16]\nconstraints:\n  - rows * colz <= 1024\n");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.where().line, 6);
    EXPECT_NE(error.where().file.find("sweep.yaml"), std::string::npos);
    EXPECT_NE(error.message().find("unknown name 'colz'"), std::string::npos) << error.message();
    EXPECT_NE(error.message().find("did you mean 'cols'"), std::string::npos) << error.message();
  }
}

TEST_F(SweepSpecTest, BadKeysAndPathsAreReportedWithSuggestions) {
  try {
    load("parameters:\n  units.mxu.rows: [16]\nobjectivs: {latency_s: min}\n");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(error.message().find("objectives"), std::string::npos) << error.message();
  }
  try {
    load("parameters:\n  units.mxv.rows: [16]\n");
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.where().line, 4);
    EXPECT_NE(error.message().find("did you mean 'mxu'"), std::string::npos) << error.message();
  }
  EXPECT_THROW(load("parameters:\n  units.mxu.rows: [16]\nobjectives: {latency_s: fastest}\n"),
               Error);
  EXPECT_THROW(load("parameters:\n  units.mxu.rows: {from: 1, to: 4}\n"), Error);
  EXPECT_THROW(load("parameters:\n  units.mxu.rows: [16]\nkeep: [latency, ops]\n"), Error);
}

TEST_F(SweepSpecTest, InvalidValuesFailWhilePlanningNamingTheSweepFile) {
  SweepSpec spec = load("parameters:\n  units.mxu.dataflow: [os, xs]\n");
  try {
    plan_sweep(spec);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_NE(error.where().file.find("sweep.yaml"), std::string::npos) << error.what();
    EXPECT_EQ(error.where().line, 4);
  }
}

}  // namespace
}  // namespace polyarch::sweep
