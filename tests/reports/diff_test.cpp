// `polyarch diff` below the CLI: the comparison of two report.json values, --fail-on rules and
// the text, JSON and Markdown renderings, on small hand-written reports.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "base/error.h"
#include "reports/diff/diff_format.h"
#include "reports/diff/fail_rule.h"
#include "reports/diff/report_diff.h"

namespace polyarch::reports {
namespace {

using Json = nlohmann::json;

Json op_json(const std::string& name, const std::string& unit, double latency_s, double utilization,
             Json energy_j = 1e-3) {
  return {{"name", name},
          {"kind", "gemm"},
          {"unit", unit},
          {"latency_s", latency_s},
          {"total_cycles", std::llround(latency_s * 1e9)},
          {"energy_j", energy_j},
          {"dram_bytes_read", 1000},
          {"dram_bytes_written", 24},
          {"compute_utilization", utilization}};
}

Json unit_json(const std::string& name, int64_t busy_cycles) {
  return {{"name", name}, {"busy_cycles", busy_cycles}, {"busy_fraction", 0.5}, {"energy_j", 2e-3}};
}

Json report_json(double latency_s, Json energy_j, Json ops, Json units = Json::array()) {
  Json avg_power_w = energy_j.is_null() ? Json(nullptr) : Json(energy_j.get<double>() / latency_s);
  return {{"schema", "polyarch.report/1"},
          {"summary",
           {{"total_cycles", std::llround(latency_s * 1e9)},
            {"latency_s", latency_s},
            {"energy_j", energy_j},
            {"avg_power_w", avg_power_w},
            {"dram_bytes_read", 4000},
            {"dram_bytes_written", 96}}},
          {"ops", ops},
          {"units", units},
          {"provenance", {{"arch_name", "toy"}, {"workload_name", "w"}}}};
}

// BASE: two ops on mxu; NEW: the same ops 10% slower.
// A one-element array is spelled Json::array({...}): a braced single json is a copy under clang
// and an array under gcc.
Json base_report() {
  return report_json(2e-3, 4e-3,
                     {op_json("qkv", "mxu", 1e-3, 0.5), op_json("ffn", "mxu", 1e-3, 0.3)},
                     Json::array({unit_json("mxu", 2000000)}));
}
Json slower_report() {
  return report_json(2.2e-3, 4e-3,
                     {op_json("qkv", "mxu", 1.1e-3, 0.5), op_json("ffn", "mxu", 1.1e-3, 0.3)},
                     Json::array({unit_json("mxu", 2200000)}));
}

const MetricDelta& metric(const std::vector<MetricDelta>& metrics, const std::string& key) {
  for (const MetricDelta& delta : metrics) {
    if (delta.key == key) return delta;
  }
  throw std::runtime_error("no metric " + key);
}

std::string bad_input_message(auto&& action) {
  try {
    action();
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput) << error.what();
    return error.what();
  }
  ADD_FAILURE() << "expected a bad-input error";
  return "";
}

TEST(ReportDiff, SummaryHasAbsoluteAndRelativeChangeOfEveryMetric) {
  const ReportDiff diff = diff_reports(base_report(), slower_report());
  ASSERT_EQ(diff.summary.size(), diff_metric_keys().size());
  const MetricDelta& latency = metric(diff.summary, "latency_s");
  EXPECT_DOUBLE_EQ(*latency.base, 2e-3);
  EXPECT_DOUBLE_EQ(*latency.next, 2.2e-3);
  EXPECT_NEAR(*latency.absolute_change(), 0.2e-3, 1e-15);
  EXPECT_NEAR(*latency.relative_change(), 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(*metric(diff.summary, "dram_bytes").base, 4096);
  EXPECT_DOUBLE_EQ(*metric(diff.summary, "energy_j").relative_change(), 0.0);
  EXPECT_EQ(diff.base_arch, "toy");
}

TEST(ReportDiff, SummaryUtilizationWeightsOpsByLatency) {
  const Json report = report_json(
      4e-3, 1e-3, {op_json("long", "mxu", 3e-3, 0.8), op_json("short", "mxu", 1e-3, 0.4)});
  const ReportDiff diff = diff_reports(report, report);
  EXPECT_NEAR(*metric(diff.summary, "utilization").base, (3 * 0.8 + 1 * 0.4) / 4, 1e-12);
}

TEST(ReportDiff, OpsMatchByNameSortedAndUnmatchedOnesAreListed) {
  const Json base =
      report_json(3e-3, 1e-3,
                  {op_json("zeta", "mxu", 1e-3, 0.5), op_json("alpha", "mxu", 1e-3, 0.5),
                   op_json("gone", "mxu", 1e-3, 0.5)});
  const Json next =
      report_json(3e-3, 1e-3,
                  {op_json("alpha", "mxu", 1e-3, 0.5), op_json("added", "vpu", 1e-3, 0.5),
                   op_json("zeta", "mxu", 2e-3, 0.5)});
  const ReportDiff diff = diff_reports(base, next);
  ASSERT_EQ(diff.ops.size(), 2u);
  EXPECT_EQ(diff.ops[0].name, "alpha");
  EXPECT_EQ(diff.ops[1].name, "zeta");
  EXPECT_DOUBLE_EQ(*metric(diff.ops[1].metrics, "latency_s").relative_change(), 1.0);
  ASSERT_EQ(diff.ops_only_in_base.size(), 1u);
  EXPECT_EQ(diff.ops_only_in_base[0].name, "gone");
  ASSERT_EQ(diff.ops_only_in_next.size(), 1u);
  EXPECT_EQ(diff.ops_only_in_next[0].name, "added");
  EXPECT_EQ(diff.ops_only_in_next[0].unit, "vpu");
}

TEST(ReportDiff, OpsOfOneNamePairOnTheSameUnitFirstThenInReportOrder) {
  const Json base =
      report_json(2e-3, 1e-3, {op_json("add", "vpu", 1e-3, 0.1), op_json("add", "mxu", 1e-3, 0.2)});
  const Json next =
      report_json(2e-3, 1e-3, {op_json("add", "mxu", 1e-3, 0.3), op_json("add", "npu", 1e-3, 0.4)});
  const ReportDiff diff = diff_reports(base, next);
  ASSERT_EQ(diff.ops.size(), 2u);
  EXPECT_EQ(diff.ops[0].base_unit, "mxu");
  EXPECT_EQ(diff.ops[0].next_unit, "mxu");
  EXPECT_EQ(diff.ops[1].base_unit, "vpu");
  EXPECT_EQ(diff.ops[1].next_unit, "npu");  // moved: still matched by name
  EXPECT_TRUE(diff.ops_only_in_base.empty());
}

TEST(ReportDiff, UnitsMatchByNameAndUnmatchedOnesAreListed) {
  const Json base =
      report_json(1e-3, 1e-3, Json::array(), {unit_json("mxu", 100), unit_json("dsp", 10)});
  const Json next =
      report_json(1e-3, 1e-3, Json::array(), {unit_json("npu", 100), unit_json("mxu", 150)});
  const ReportDiff diff = diff_reports(base, next);
  ASSERT_EQ(diff.units.size(), 1u);
  EXPECT_DOUBLE_EQ(*metric(diff.units[0].metrics, "busy_cycles").relative_change(), 0.5);
  EXPECT_EQ(diff.units_only_in_base, std::vector<std::string>{"dsp"});
  EXPECT_EQ(diff.units_only_in_next, std::vector<std::string>{"npu"});
}

// A baseline written before ops[].compute_utilization and units[].busy_fraction had their names
// (both were "utilization") diffs against a current report value for value.
TEST(ReportDiff, ABaselineWithTheEarlierUtilizationNamesIsReadByThem) {
  Json old_op = op_json("proj", "mxu", 1e-3, 0.25);
  old_op.erase("compute_utilization");
  old_op["utilization"] = 0.25;
  Json old_unit = unit_json("mxu", 100);
  old_unit.erase("busy_fraction");
  old_unit["utilization"] = 0.4;
  Json new_unit = unit_json("mxu", 100);
  new_unit["busy_fraction"] = 0.5;
  const ReportDiff diff =
      diff_reports(report_json(1e-3, 1e-3, Json::array({old_op}), Json::array({old_unit})),
                   report_json(1e-3, 1e-3, Json::array({op_json("proj", "mxu", 1e-3, 0.75)}),
                               Json::array({new_unit})));
  EXPECT_DOUBLE_EQ(*metric(diff.ops[0].metrics, "utilization").base, 0.25);
  EXPECT_DOUBLE_EQ(*metric(diff.ops[0].metrics, "utilization").next, 0.75);
  EXPECT_DOUBLE_EQ(*metric(diff.summary, "utilization").base, 0.25);
  EXPECT_DOUBLE_EQ(*metric(diff.units[0].metrics, "busy_fraction").base, 0.4);
  EXPECT_DOUBLE_EQ(*metric(diff.units[0].metrics, "busy_fraction").next, 0.5);
}

TEST(ReportDiff, NullEnergyIsAbsentAndZeroBaseHasNoRelativeChange) {
  const Json base =
      report_json(1e-3, nullptr, Json::array({op_json("a", "mxu", 1e-3, 0.0, nullptr)}));
  const Json next = report_json(1e-3, 1e-3, Json::array({op_json("a", "mxu", 1e-3, 0.5, 1e-3)}));
  const ReportDiff diff = diff_reports(base, next);
  EXPECT_FALSE(metric(diff.summary, "energy_j").base.has_value());
  EXPECT_FALSE(metric(diff.summary, "energy_j").absolute_change().has_value());
  EXPECT_FALSE(metric(diff.ops[0].metrics, "avg_power_w").base.has_value());
  const MetricDelta& utilization = metric(diff.ops[0].metrics, "utilization");
  EXPECT_DOUBLE_EQ(*utilization.absolute_change(), 0.5);
  EXPECT_FALSE(utilization.relative_change().has_value());
  const MetricDelta both_zero{"x", 0.0, 0.0};
  EXPECT_DOUBLE_EQ(*both_zero.relative_change(), 0.0);
}

TEST(ReportDiff, RejectsOtherSchemasAndMalformedReportsNamingFileAndKey) {
  Json wrong_schema = base_report();
  wrong_schema["schema"] = "polyarch.sweep/1";
  Json no_schema = base_report();
  no_schema.erase("schema");
  Json bad_op = base_report();
  bad_op["ops"][1]["latency_s"] = "fast";
  Json no_units = base_report();
  no_units.erase("units");
  Json op_not_object = base_report();
  op_not_object["ops"][0] = 3;
  const std::vector<std::pair<Json, std::string>> cases = {
      {wrong_schema, "b.json: schema: unsupported schema \"polyarch.sweep/1\""},
      {Json::array(), "b.json: not a polyarch report"},
      {no_schema, "b.json: not a polyarch report: no \"schema\" key"},
      {bad_op, "b.json: ops[1].latency_s: expected a number, got string"},
      {no_units, "b.json: units: missing key"},
      {op_not_object, "b.json: ops[0]: expected an object, got number"},
  };
  for (const auto& [report, expected] : cases) {
    // clang 14 (the sanitizer build) cannot capture a structured binding in a lambda.
    const Json& next = report;
    const std::string message =
        bad_input_message([&] { diff_reports(base_report(), next, "a.json", "b.json"); });
    EXPECT_NE(message.find(expected), std::string::npos) << message;
  }
}

TEST(FailRule, ParsesRelativeAbsoluteAndOpRulesAlsoCommaSeparated) {
  const std::vector<FailRule> rules =
      parse_fail_rules("latency:+5%, utilization:-2%,energy_j:+1mJ,layer.0.qkv.cycles:+10%");
  ASSERT_EQ(rules.size(), 4u);
  EXPECT_EQ(rules[0].metric_key, "latency_s");
  EXPECT_EQ(rules[0].direction, RuleDirection::kIncrease);
  EXPECT_TRUE(rules[0].relative);
  EXPECT_DOUBLE_EQ(rules[0].limit, 5.0);
  EXPECT_EQ(rules[1].metric_key, "utilization");
  EXPECT_EQ(rules[1].direction, RuleDirection::kDecrease);
  EXPECT_EQ(rules[2].metric_key, "energy_j");
  EXPECT_FALSE(rules[2].relative);
  EXPECT_DOUBLE_EQ(rules[2].limit, 0.001);
  EXPECT_EQ(rules[3].op_name, "layer.0.qkv");
  EXPECT_EQ(rules[3].metric_key, "total_cycles");
  EXPECT_TRUE(rules[0].op_name.empty());
}

TEST(FailRule, AThresholdNamesItsUnitAndAmountsAreScaledToTheMetricsUnit) {
  struct Case {
    const char* text;
    double limit;  // in seconds, joules, watts, bytes, cycles or utilisation (a fraction)
  };
  for (const Case& rule :
       {Case{"latency:+2ms", 2e-3}, Case{"latency:+3us", 3e-6}, Case{"latency:+1s", 1.0},
        Case{"energy:+5uJ", 5e-6}, Case{"power:+250mW", 0.25}, Case{"dram_bytes:+2MiB", 2097152.0},
        Case{"dram_bytes:+1kB", 1000.0}, Case{"cycles:+100cycles", 100.0},
        Case{"utilization:-3pp", 0.03}}) {
    const std::vector<FailRule> parsed = parse_fail_rules(rule.text);
    ASSERT_EQ(parsed.size(), 1u) << rule.text;
    EXPECT_FALSE(parsed[0].relative) << rule.text;
    EXPECT_NEAR(parsed[0].limit, rule.limit, rule.limit * 1e-12) << rule.text;
  }
  // A bare number could be seconds or percent: refused, naming the metric's units.
  const std::string bare = bad_input_message([] { parse_fail_rules("latency:+2"); });
  EXPECT_NE(bare.find("threshold '+2' has no unit"), std::string::npos) << bare;
  EXPECT_NE(bare.find("(s, ms, us, ns)"), std::string::npos) << bare;
  // A unit of another metric is refused too.
  const std::string other = bad_input_message([] { parse_fail_rules("energy:+2ms"); });
  EXPECT_NE(other.find("unknown unit 'ms'"), std::string::npos) << other;
  EXPECT_NE(other.find("(J, mJ, uJ, nJ, pJ)"), std::string::npos) << other;
}

TEST(FailRule, MalformedRulesAreBadInputNamingTheFlagAndRule) {
  for (const char* text :
       {"latency", "latency:5%", "latency:+", "latency:+5%%", "latency:+abc", "latency:+-5%",
        "latency:+inf", "latency:+5%,", ":+5%", "latency: +5 %", "latency:+5", "cycles:+0"}) {
    const std::string message = bad_input_message([&] { parse_fail_rules(text); });
    EXPECT_EQ(message.rfind("--fail-on: '", 0), 0u) << text << ": " << message;
  }
  EXPECT_NE(bad_input_message([] {
              parse_fail_rules("latncy:+5%");
            }).find("unknown metric 'latncy'; did you mean 'latency'?"),
            std::string::npos);
  EXPECT_NE(bad_input_message([] {
              parse_fail_rules("qkv.speed:+5%");
            }).find("unknown metric 'qkv.speed'"),
            std::string::npos);
}

TEST(FailRule, IncreaseFailsOnlyAboveTheLimitAndDecreaseOnlyBelowIt) {
  const ReportDiff diff = diff_reports(base_report(), slower_report());  // latency +10%
  auto failed = [&](const std::string& rules) {
    return any_failed(evaluate_fail_rules(parse_fail_rules(rules), diff));
  };
  EXPECT_TRUE(failed("latency:+5%"));
  EXPECT_FALSE(failed("latency:+10%"));   // exactly 10% is not more than 10%
  EXPECT_FALSE(failed("latency:-5%"));    // it rose: no drop
  EXPECT_TRUE(failed("latency:+0.1ms"));  // it rose by 0.2 ms
  EXPECT_FALSE(failed("latency:+0.3ms"));
  EXPECT_TRUE(failed("latency:+199us"));
  EXPECT_FALSE(failed("latency:+201us"));
  EXPECT_FALSE(failed("energy:+0%"));  // unchanged
  const ReportDiff reversed = diff_reports(slower_report(), base_report());
  EXPECT_TRUE(any_failed(evaluate_fail_rules(parse_fail_rules("cycles:-5%"), reversed)));
  EXPECT_FALSE(any_failed(evaluate_fail_rules(parse_fail_rules("cycles:-10%"), reversed)));
}

TEST(FailRule, OutcomeCarriesBothValuesAndOpRulesCheckEveryOpOfTheName) {
  const ReportDiff diff = diff_reports(base_report(), slower_report());
  const std::vector<RuleOutcome> outcomes =
      evaluate_fail_rules(parse_fail_rules("ffn.latency:+5%,power:+1%"), diff);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].subject, "op 'ffn' on mxu");
  EXPECT_DOUBLE_EQ(outcomes[0].base, 1e-3);
  EXPECT_DOUBLE_EQ(outcomes[0].next, 1.1e-3);
  EXPECT_TRUE(outcomes[0].failed);
  EXPECT_EQ(outcomes[1].subject, "summary");
  EXPECT_FALSE(outcomes[1].failed);  // same energy over a longer time: power fell
}

TEST(FailRule, RuleOnAMissingOpOrNullMetricIsBadInput) {
  const Json base = report_json(1e-3, nullptr, Json::array({op_json("a", "mxu", 1e-3, 0.5)}));
  const Json next = report_json(1e-3, 1e-3, Json::array({op_json("b", "mxu", 1e-3, 0.5)}));
  const ReportDiff diff = diff_reports(base, next, "base.json", "new.json");
  auto evaluate = [&](const std::string& rules) {
    return bad_input_message([&] { evaluate_fail_rules(parse_fail_rules(rules), diff); });
  };
  EXPECT_NE(evaluate("a.latency:+5%").find("op 'a' is only in base.json"), std::string::npos);
  EXPECT_NE(evaluate("b.latency:+5%").find("op 'b' is only in new.json"), std::string::npos);
  EXPECT_NE(evaluate("c.latency:+5%").find("no op named 'c'"), std::string::npos);
  EXPECT_NE(evaluate("energy:+5%").find("summary energy_j is null in base.json"),
            std::string::npos);
}

TEST(DiffFormat, TextNamesTheFailedRuleWithBothValuesAndTheVerdict) {
  const ReportDiff diff = diff_reports(base_report(), slower_report(), "a.json", "b.json");
  const std::string text =
      render_diff(diff, evaluate_fail_rules(parse_fail_rules("latency:+5%,energy:+5%"), diff),
                  DiffFormat::kText);
  EXPECT_NE(text.find("BASE a.json (arch toy, workload w)"), std::string::npos) << text;
  EXPECT_NE(text.find("FAIL latency:+5%: summary latency_s went from 0.002 (BASE) to 0.0022 (NEW), "
                      "+0.0002, +10.00%, more than the +5% allowed"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ok   energy:+5%"), std::string::npos) << text;
  EXPECT_NE(text.find("result: REGRESSION (1 of 2 checks failed)"), std::string::npos) << text;
  // Integers in full, no "-0".
  std::istringstream cycles_row(text.substr(text.find("  total_cycles")));
  std::string key, base, next, change, percent;
  cycles_row >> key >> base >> next >> change >> percent;
  EXPECT_EQ(base + " " + next + " " + change + " " + percent, "2000000 2200000 +200000 +10.00%");
  EXPECT_EQ(text.find("-0 "), std::string::npos) << text;
  EXPECT_EQ(text, render_diff(diff_reports(base_report(), slower_report(), "a.json", "b.json"),
                              evaluate_fail_rules(parse_fail_rules("latency:+5%,energy:+5%"), diff),
                              DiffFormat::kText));
}

TEST(DiffFormat, JsonCarriesEveryDeltaAndTheRuleOutcomes) {
  const ReportDiff diff = diff_reports(base_report(), slower_report());
  const Json json = Json::parse(render_diff(
      diff, evaluate_fail_rules(parse_fail_rules("qkv.latency:+5%"), diff), DiffFormat::kJson));
  EXPECT_EQ(json["schema"], "polyarch.diff/1");
  EXPECT_NEAR(json["summary"]["latency_s"]["change_percent"].get<double>(), 10.0, 1e-9);
  EXPECT_EQ(json["ops"][0]["name"], "ffn");
  EXPECT_EQ(json["ops"][1]["metrics"]["dram_bytes"]["base"], 1024.0);
  EXPECT_TRUE(json["regression"].get<bool>());
  EXPECT_EQ(json["rules"][0]["subject"], "op 'qkv' on mxu");
  EXPECT_EQ(json["rules"][0]["limit"], "+5%");
  EXPECT_TRUE(json["ops_only_in_base"].empty());
}

TEST(DiffFormat, MarkdownHasAlignedPipeTablesAndBoldFailures) {
  Json next = slower_report();
  next["ops"][0]["name"] = "a|b";
  const ReportDiff diff = diff_reports(base_report(), next);
  const std::string markdown = render_diff(
      diff, evaluate_fail_rules(parse_fail_rules("latency:+5%"), diff), DiffFormat::kMarkdown);
  EXPECT_NE(
      markdown.find("| metric | base | new | change | change % |\n| :-- | --: | --: | --: | --: |"),
      std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("- ops only in NEW: a\\|b (mxu)"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("- **FAIL latency:+5%"), std::string::npos) << markdown;
  // The verdict opens the page, then the failed rule, before any table.
  EXPECT_EQ(markdown.rfind("## polyarch diff\n\n**result: REGRESSION (1 of 1 checks failed)**\n\n"
                           "- **FAIL latency:+5%",
                           0),
            0u)
      << markdown;
}

}  // namespace
}  // namespace polyarch::reports
