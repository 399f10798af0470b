// report.json's `arch`: the configuration simulated, after `base:` merging and defaults, through
// the real program.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class ReportArchTest : public polyarch::test_support::ScratchDirTest {};

TEST_F(ReportArchTest, ArchHoldsTheMergedConfigurationOfABaseOverride) {
  // tpu_v1_like: 256 x 256 WS at 0.7 GHz on DDR3; the override makes the array 64 rows, output
  // stationary, and the SoC clock 1 GHz, and leaves the rest to the base file.
  write("small_tpu.yaml", "base: " + source_path("configs/arch/tpu_v1_like.yaml") + R"(
clock_ghz: 1.0
units:
  - {name: mxu, rows: 64, dataflow: os}
)");
  write("gemm.yaml", R"(name: one_gemm
layers:
  - {name: g, op: gemm, m: 128, n: 128, k: 128}
)");
  const auto result = run_polyarch("run --quiet --arch " + path("small_tpu.yaml") + " --workload " +
                                   path("gemm.yaml") + " --out " + path("out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto report = nlohmann::ordered_json::parse(read_file(path("out/report.json")));
  ASSERT_TRUE(report.contains("arch")) << report.dump();
  const auto& arch = report["arch"];
  EXPECT_EQ(arch["name"], "tpu-v1-like");    // from the base
  EXPECT_DOUBLE_EQ(arch["clock_ghz"], 1.0);  // overridden
  EXPECT_EQ(arch["memory"]["dram"]["kind"], "ddr3");
  EXPECT_DOUBLE_EQ(arch["memory"]["dram"]["bandwidth_gbps"], 34.0);
  EXPECT_DOUBLE_EQ(arch["memory"]["dram"]["capacity_gib"], 8.0);
  ASSERT_EQ(arch["units"].size(), 1u);
  const auto& mxu = arch["units"][0];
  EXPECT_EQ(mxu["rows"], 64);        // overridden
  EXPECT_EQ(mxu["cols"], 256);       // from the base
  EXPECT_EQ(mxu["dataflow"], "os");  // overridden
  EXPECT_EQ(mxu["buffers"]["ifmap_kib"], 24576);
  EXPECT_EQ(mxu["scalesim_compat"], true);  // a default neither file writes
  EXPECT_TRUE(mxu["clock_ghz"].is_null());  // runs at the SoC clock
  // After every key that was there before.
  EXPECT_EQ(std::prev(report.end()).key(), "arch");
}

}  // namespace
