// Power at the board's input: the chip's (with its DRAM) over the board's regulator efficiency.
// Expected values are divided out by hand.
#include "sim/energy/board_power.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "archs/soc/soc_config.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"

namespace polyarch::sim {
namespace {

TEST(BoardPower, RegulatorLossesAddToTheChipsPower) {
  // 595 W delivered at 85%: 595 / 0.85 = 700 W drawn, 105 W lost in the regulators.
  EXPECT_NEAR(*board_power_w(595.0, 0.85), 700.0, 1e-9);
  EXPECT_NEAR(*board_power_w(90.0, 1.0), 90.0, 1e-12);
}

TEST(BoardPower, NoBoardOrNoChipPowerGivesNone) {
  EXPECT_FALSE(board_power_w(100.0, std::nullopt));
  EXPECT_FALSE(board_power_w(std::nullopt, 0.9));
}

RunResult run_gemm(const std::string& board_line) {
  const archs::SocConfig soc = archs::parse_soc_config(parse_config_text(
      "name: t\nclock_ghz: 1.0\ntechnology: 28nm\n" + board_line +
          "memory:\n  dram: {kind: hbm2, bandwidth_gbps: 600, channels: 8}\n"
          "units:\n  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n",
      "arch.yaml"));
  return driver::simulate_workload(
      soc, frontend::layer_list_from_config(
               parse_config_text("layers:\n  - {name: g, op: gemm, m: 64, n: 64, k: 64}\n",
                                 "w.yaml"),
               "g"));
}

TEST(BoardPower, ARunOnABoardReportsItsChipPowerOverTheEfficiency) {
  const RunResult result = run_gemm("board: {regulator_efficiency: 0.8}\n");
  ASSERT_TRUE(result.summary.avg_power_w);
  ASSERT_TRUE(result.summary.board_power_w);
  EXPECT_NEAR(*result.summary.board_power_w, *result.summary.avg_power_w / 0.8,
              1e-12 * *result.summary.board_power_w);
  EXPECT_FALSE(run_gemm("").summary.board_power_w);
}

}  // namespace
}  // namespace polyarch::sim
