// The clock network: every clocked storage bit's flip-flop clock pin is charged every cycle of
// the run, busy or idle. Expected values are worked by hand from the NanGate 45 nm DFF_X1 clock
// pin capacitance (0.949653 fF), its scaling to the node and the table's supply, not through the
// functions under test.
#include "sim/energy/clock_network.h"

#include <gtest/gtest.h>

#include <string>

#include "archs/registry.h"
#include "archs/soc/soc_config.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"

namespace polyarch::sim {
namespace {

// 28 nm: 0.949653 fF x 0.507 x (0.9 / 0.9)^2 = 0.481474 fF at Vdd 0.9 V, so one bit-cycle costs
// 0.481474 fF x 0.81 V^2 = 0.389994 fJ.
constexpr double kJoulesPerBitCycle28nm = 0.481474e-15 * 0.9 * 0.9;

TEST(ClockNetwork, ChargesEveryBitsClockPinEveryCycleAtTheSupplySquared) {
  const TechTable table = archs::resolve_tech("28nm").table;
  EXPECT_NEAR(table.clock_pj_per_bit_cycle(), 0.389994e-3, 1e-9);
  // 1000 bits for 2000 cycles: 2e6 bit-cycles.
  EXPECT_NEAR(clock_network_j(table, 1000.0, 2000), 2e6 * kJoulesPerBitCycle28nm, 1e-21);
  EXPECT_EQ(clock_network_j(table, 1000.0, 0), 0.0);
}

TEST(ClockNetwork, NodeScalingKeepsTheCapacitanceAndTakesEachNodesSupply) {
  // 7 nm: 0.949653 fF x 0.0665 x (0.9 / 0.75)^2 = 0.0909388 fF at 0.75 V.
  const TechTable table = archs::resolve_tech("7nm").table;
  EXPECT_NEAR(table.clock_pj_per_bit_cycle(), 0.0909388e-3 * 0.75 * 0.75, 1e-12);
}

archs::SocConfig soc_from(const std::string& units) {
  return archs::parse_soc_config(parse_config_text(
      "name: t\nclock_ghz: 1.0\ntechnology: 28nm\n"
      "memory:\n  dram: {kind: hbm2, bandwidth_gbps: 600, channels: 8}\nunits:\n" + units,
      "arch.yaml"));
}

RunResult run_gemm(const archs::SocConfig& soc) {
  return driver::simulate_workload(
      soc, frontend::layer_list_from_config(
               parse_config_text("layers:\n  - {name: g, op: gemm, m: 64, n: 64, k: 64}\n",
                                 "w.yaml"),
               "g"));
}

TEST(ClockNetwork, ASystolicArrayClocksItsPipelineRegistersForTheWholeRun) {
  const archs::SocConfig soc =
      soc_from("  - {name: mxu, kind: systolic, rows: 8, cols: 8, dataflow: os}\n");
  const RunResult result = run_gemm(soc);
  ASSERT_EQ(result.units.size(), 1u);
  const UnitResult& unit = result.units[0];
  // An os PE holds both int8 operands and its int32 accumulator: 8 + 8 + 32 = 48 bits; 64 PEs.
  const double bits = 64.0 * 48.0;
  const double expected = bits * static_cast<double>(unit.total_cycles) * kJoulesPerBitCycle28nm;
  ASSERT_GT(unit.total_cycles, 0);
  EXPECT_NEAR(unit.energy_by_action.at("clock"), expected, 1e-9 * expected);
  EXPECT_NEAR(result.summary.energy_by_action.at("clock"), expected, 1e-9 * expected);
}

TEST(ClockNetwork, AUnitWhoseModelCountsNoClockedBitsHasNoClockAction) {
  const archs::SocConfig soc = soc_from(
      "  - {name: vec, kind: simd, count: 4, dtype: fp16, vector: {lanes: 16},\n"
      "     scratchpad: {kib: 64, bytes_per_cycle: 64}, core_bytes_per_cycle: 32,\n"
      "     l2: {capacity_mib: 1, bytes_per_cycle: 128, hit_latency_cycles: 20}}\n");
  const RunResult result = run_gemm(soc);
  ASSERT_TRUE(result.summary.energy_j);
  EXPECT_FALSE(result.summary.energy_by_action.contains("clock"));
}

}  // namespace
}  // namespace polyarch::sim
