// `polyarch diff` of two sweeps below the CLI, on hand-written points.csv files: results matched
// by (point id, workload), rules on every result and on the Pareto front, missing results.
#include "sweep/sweep_diff.h"

#include <gtest/gtest.h>

#include "sweep/sweep_diff_format.h"
#include "tests/support/bad_input.h"
#include "tests/support/scratch_dir_test.h"

namespace polyarch::sweep {
namespace {

using test_support::bad_input_message;

class SweepDiffTest : public test_support::ScratchDirTest {
 protected:
  // points.csv as the sweep runner writes it: one parameter, two metrics, the front.
  SweepResults csv(const std::string& name, const std::string& rows) {
    write(name,
          "point_id,units.npu.rows,area_mm2,workload,workload_path,latency_s,energy_j,"
          "op_count,pareto\n" +
              rows);
    return load_sweep_results(path(name));
  }
  SweepResults base() {
    return csv("base.csv",
               "p0,8,1.0,bert,b.yaml,0.004,0.10,8,1\n"
               "p1,16,2.0,bert,b.yaml,0.002,0.20,8,1\n"
               "p2,32,4.0,bert,b.yaml,0.003,0.40,8,0\n");
  }
};

TEST_F(SweepDiffTest, ResultsMatchByPointIdAndTheUnmatchedAreListed) {
  const SweepResults next = csv("new.csv",
                                "p1,16,2.0,bert,b.yaml,0.0022,0.20,8,1\n"
                                "p0,8,1.0,bert,b.yaml,0.004,0.10,8,1\n"
                                "p3,64,8.0,bert,b.yaml,0.001,0.90,8,1\n");
  const SweepDiff diff = diff_sweeps(base(), next, false);
  ASSERT_EQ(diff.results.size(), 2u);
  EXPECT_EQ(diff.results[0].subject, "point p0 on bert");
  EXPECT_EQ(diff.results[1].subject, "point p1 on bert");
  EXPECT_EQ(diff.only_in_base, std::vector<std::string>{"p2 on bert"});
  EXPECT_EQ(diff.only_in_next, std::vector<std::string>{"p3 on bert"});
  // Base front {p0, p1}, new front {p0, p1, p3}.
  EXPECT_TRUE(diff.left_front.empty());
  EXPECT_EQ(diff.joined_front, std::vector<std::string>{"p3"});
}

TEST_F(SweepDiffTest, EveryPointAndTheFrontsBestValueAreGated) {
  // p1 is 10% slower; p3 joins the front with the best latency, 0.001 against 0.002.
  const SweepResults next = csv("new.csv",
                                "p0,8,1.0,bert,b.yaml,0.004,0.10,8,1\n"
                                "p1,16,2.0,bert,b.yaml,0.0022,0.20,8,1\n"
                                "p2,32,4.0,bert,b.yaml,0.003,0.40,8,0\n"
                                "p3,64,8.0,bert,b.yaml,0.001,0.90,8,1\n");
  const SweepDiff diff = diff_sweeps(base(), next, false);
  const auto outcomes = evaluate_sweep_rules(reports::parse_fail_rules("latency:+5%"), diff);
  ASSERT_EQ(outcomes.size(), 4u);  // three points and the front
  EXPECT_FALSE(outcomes[0].failed);
  EXPECT_TRUE(outcomes[1].failed);
  EXPECT_EQ(outcomes[1].subject, "point p1 on bert");
  EXPECT_EQ(outcomes[3].subject, "Pareto front on bert");
  EXPECT_DOUBLE_EQ(outcomes[3].base, 0.002);
  EXPECT_DOUBLE_EQ(outcomes[3].next, 0.001);
  EXPECT_FALSE(outcomes[3].failed);
  EXPECT_TRUE(sweep_regressed(outcomes, diff));
  const std::string markdown = render_sweep_diff(diff, outcomes, reports::DiffFormat::kMarkdown);
  EXPECT_EQ(markdown.rfind("## polyarch diff (sweeps)\n\n**result: REGRESSION (1 of 4 checks "
                           "failed)**\n\n- **FAIL latency:+5%: point p1 on bert",
                           0),
            0u)
      << markdown;
}

TEST_F(SweepDiffTest, AResultMissingFromNewFailsTheGateWhenRulesAreGiven) {
  const SweepResults next = csv("new.csv",
                                "p0,8,1.0,bert,b.yaml,0.004,0.10,8,1\n"
                                "p1,16,2.0,bert,b.yaml,0.002,0.20,8,1\n");
  const SweepDiff diff = diff_sweeps(base(), next, false);
  const auto outcomes = evaluate_sweep_rules(reports::parse_fail_rules("energy:+1%"), diff);
  EXPECT_FALSE(reports::any_failed(outcomes));
  EXPECT_TRUE(sweep_regressed(outcomes, diff));
  EXPECT_NE(describe_sweep_outcomes(diff, outcomes)
                .find("result: REGRESSION (1 results of BASE missing from NEW; "),
            std::string::npos);
  EXPECT_FALSE(sweep_regressed({}, diff));  // no rules: a report, not a gate
}

TEST_F(SweepDiffTest, PointsWithOtherParametersAndRulesTheSweepCannotCheckAreRefused) {
  const SweepResults next = csv("new.csv", "p0,12,1.0,bert,b.yaml,0.004,0.10,8,1\n");
  EXPECT_NE(bad_input_message([&] { diff_sweeps(base(), next, false); }, "p0 rows 12")
                .find("point p0 has units.npu.rows = 8 in "),
            std::string::npos);
  const SweepDiff diff = diff_sweeps(base(), next, true);
  EXPECT_EQ(diff.results.size(), 1u);
  EXPECT_NE(bad_input_message(
                [&] { evaluate_sweep_rules(reports::parse_fail_rules("ffn.latency:+5%"), diff); },
                "op rule")
                .find("a sweep keeps no per-op results"),
            std::string::npos);
  EXPECT_NE(
      bad_input_message([&] { evaluate_sweep_rules(reports::parse_fail_rules("power:+5%"), diff); },
                        "power not kept")
          .find("the sweeps do not both keep avg_power_w"),
      std::string::npos);
}

TEST_F(SweepDiffTest, AFileThatIsNotASweepIsBadInputNamingIt) {
  write("other.csv", "name,value\na,1\n");
  EXPECT_NE(bad_input_message([&] { load_sweep_results(path("other.csv")); }, "other.csv")
                .find("other.csv:1: not a polyarch sweep's points"),
            std::string::npos);
  EXPECT_NE(bad_input_message([&] { load_sweep_results(path("none.sqlite")); }, "none")
                .find("none.sqlite: no such file"),
            std::string::npos);
  EXPECT_TRUE(is_sweep_results(path("other.csv")));
  write("report.json", "{}");
  EXPECT_FALSE(is_sweep_results(path("report.json")));
}

}  // namespace
}  // namespace polyarch::sweep
