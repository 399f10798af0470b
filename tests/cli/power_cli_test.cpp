// `polyarch run` writes power and temperature traces: in report.json and as Perfetto counter
// tracks; --power-window-us sets their resolution; an arch file's `thermal:` section sets the
// package.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class PowerCliTest : public polyarch::test_support::ScratchDirTest {
 protected:
  nlohmann::json run(const std::string& arch, const std::string& extra) {
    const auto result = run_polyarch("run --quiet --arch " + arch + " --workload " +
                                     source_path("workloads/bert_base_gemms.yaml") + " --out " +
                                     path("out") + " " + extra);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    return nlohmann::json::parse(read_file(path("out/report.json")));
  }
};

TEST_F(PowerCliTest, ReportAndTraceCarryPowerAndTemperature) {
  const auto report =
      run(source_path("configs/arch/tpu_v1_like.yaml"), "--power-window-us 10");
  EXPECT_DOUBLE_EQ(report["power_trace"]["window_s"].get<double>(), 1e-5);
  EXPECT_FALSE(report["power_trace"]["watts"]["mxu"].empty());
  EXPECT_TRUE(report["summary"]["peak_temp_c"].is_number());
  EXPECT_EQ(report["thermal"]["celsius"]["mxu"].size(),
            report["power_trace"]["watts"]["mxu"].size());
  const auto trace = nlohmann::json::parse(read_file(path("out/trace.json")));
  int power_counters = 0;
  int temperature_counters = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "C") continue;
    if (event["name"] == "power W (mxu)") ++power_counters;
    if (event["name"] == "temperature C (mxu)") ++temperature_counters;
  }
  EXPECT_EQ(power_counters, static_cast<int>(report["power_trace"]["watts"]["mxu"].size()));
  EXPECT_EQ(temperature_counters, power_counters);
}

TEST_F(PowerCliTest, TheArchThermalSectionMovesTemperaturesWithAmbient) {
  const auto base = run(source_path("configs/arch/tpu_v1_like.yaml"), "");
  write("hot.yaml", "base: " + source_path("configs/arch/tpu_v1_like.yaml") +
                        "\nthermal: {ambient_k: 328.15}\n");
  const auto hot = run(path("hot.yaml"), "");
  // 10 K more ambient, and a little more on top: the hotter die leaks more.
  const double rise = hot["summary"]["peak_temp_c"].get<double>() -
                      base["summary"]["peak_temp_c"].get<double>();
  EXPECT_GT(rise, 10.0);
  EXPECT_LT(rise, 11.0);
  EXPECT_GT(hot["summary"]["energy_j"].get<double>(), base["summary"]["energy_j"].get<double>());
  EXPECT_GT(hot["thermal"]["leakage_feedback"]["mean_factor"]["mxu"].get<double>(),
            base["thermal"]["leakage_feedback"]["mean_factor"]["mxu"].get<double>());
}

TEST_F(PowerCliTest, ABadWindowIsBadInput) {
  const auto result = run_polyarch("run --arch " + source_path("configs/arch/tpu_v1_like.yaml") +
                                   " --workload " + source_path("workloads/bert_base_gemms.yaml") +
                                   " --out " + path("out") + " --power-window-us -3");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--power-window-us"), std::string::npos) << result.output;
}

}  // namespace
