// The crossbar unit: MVM timing from its parameters, weights that do not fit, energy by action,
// and attention routed to a digital unit.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/energy.h"
#include "archs/crossbar/estimate.h"
#include "archs/crossbar/kind.h"
#include "archs/soc/soc_config.h"
#include "tests/archs/crossbar/small_unit.h"
#include "tests/base/error_capture.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::crossbar {
namespace {

using test_support::make_op;

SocConfig shipped(const std::string& file) {
  return load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file);
}

CrossbarParams params_of(const SocConfig& soc) {
  for (const auto& unit : soc.units) {
    if (const auto* xbar = dynamic_cast<const CrossbarUnitConfig*>(unit.get())) {
      return xbar->params();
    }
  }
  return {};
}

ir::Op conv3x3(int64_t channels, int64_t size) {
  ir::Conv2dAttrs conv;
  conv.c = channels;
  conv.k = channels;
  conv.h = size;
  conv.w = size;
  conv.r = 3;
  conv.s = 3;
  conv.pad_h = 1;
  conv.pad_w = 1;
  return make_op("conv", conv);
}

TEST(CrossbarCostModel, AnMvmTakesInputSlicesTimesReadPlusConversionsPlusPeripherals) {
  const CrossbarParams params = params_of(shipped("isaac_like.yaml"));
  const CrossbarPlan plan =
      plan_op(params, make_op("fc", ir::GemmAttrs{.m = 1, .n = 64, .k = 128}));
  // 16 one-bit input slices x (100 ns read + 128 conversions at 1.28 GS/s) + 10 ns.
  EXPECT_DOUBLE_EQ(plan.mvm_latency_ns, 16 * (100.0 + 100.0) + 10.0);
  EXPECT_EQ(plan.row_blocks, 1);
  EXPECT_EQ(plan.col_blocks, 4);  // 64 weights x 8 two-bit cells over 128 columns
  // Alone (no DRAM time): the next slice's read overlaps this slice's conversions, so the
  // estimate is 16 slices at 100 ns, plus the last conversion and the shift-and-add.
  EXPECT_NEAR(estimate_op(params, plan, {}).seconds * 1e9, 15 * 100.0 + (100.0 + 100.0) + 10.0,
              1e-6);
}

TEST(CrossbarCostModel, ReplicasShareTheInputVectorsAndStreamAtTheSliceRate) {
  const CrossbarParams params = params_of(shipped("isaac_like.yaml"));
  const CrossbarPlan plan = plan_op(params, conv3x3(128, 28));
  // K = 1152 rows -> 9 row blocks; 128 weights x 8 cells -> 8 column blocks.
  EXPECT_EQ(plan.arrays_needed, 72);
  EXPECT_EQ(plan.replicas, params.array_count() / 72);
  const double vectors = std::ceil(784.0 / static_cast<double>(plan.replicas));
  EXPECT_NEAR(estimate_op(params, plan, {}).seconds * 1e9, vectors * 16 * params.slice_ns(),
              params.slice_ns() + 200.0);
  // Every column of every used array is converted once per input slice.
  EXPECT_EQ(plan.activity.adc_conversions, int64_t{784} * 16 * 9 * 128 * 8);
}

TEST(CrossbarCostModel, WeightsThatDoNotFitAreReprogrammedPassByPass) {
  const CrossbarParams params = params_of(shipped("sram_cim_like.yaml"));
  const CrossbarPlan plan =
      plan_op(params, make_op("big", ir::GemmAttrs{.m = 4, .n = 4096, .k = 4096}));
  EXPECT_GT(plan.passes, 1);
  EXPECT_GT(plan.program_ns, 0.0);
  EXPECT_GT(plan.activity.cells_reprogrammed, 0);
}

TEST(CrossbarCostModel, EachPassWritesACellOnceSoEnduranceOverPassesIsTheRunsToWearOut) {
  CrossbarParams params = test_units::small_unit();
  params.cell.endurance_cycles = 1e6;
  // K = 128 -> 2 row blocks; 160 weights x 4 two-bit cells over 64 columns -> 10 column blocks:
  // 20 arrays on 8, so 3 passes, and a cell of the first arrays is written in every one.
  const CrossbarPlan plan =
      plan_op(params, make_op("big", ir::GemmAttrs{.m = 4, .n = 160, .k = 128}));
  ASSERT_EQ(plan.passes, 3);
  EXPECT_DOUBLE_EQ(plan.mapping.at("runs_to_wear_out").get<double>(), 1e6 / 3);
  // Resident weights are programmed once, before any run: no wear per run.
  const CrossbarPlan resident =
      plan_op(params, make_op("small", ir::GemmAttrs{.m = 4, .n = 16, .k = 64}));
  EXPECT_EQ(resident.passes, 1);
  EXPECT_FALSE(resident.mapping.contains("runs_to_wear_out"));
}

TEST(CrossbarEnergy, AdcConversionsDominateOnIsaac) {
  const SocConfig soc = shipped("isaac_like.yaml");
  const CrossbarParams params = params_of(soc);
  const CrossbarPlan plan = plan_op(params, conv3x3(128, 28));
  sim::OpResult op;
  op.unit_clock_ghz = 1.2;
  op.total_cycles = 1000;
  const sim::EnergyByAction energy =
      crossbar_op_energy(params, op, plan.activity, {soc.tech.table, "ddr4"});
  // The preset's 8-bit ADC is the 28 nm table's (anchored to the same ISAAC ADC, 1.56 pJ).
  const double adc_pj = soc.tech.table.adc_pj_per_conversion(8);
  EXPECT_NEAR(adc_pj, 1.56, 0.01);
  EXPECT_NEAR(energy.at("adc"), static_cast<double>(plan.activity.adc_conversions) * adc_pj * 1e-12,
              1e-12);
  EXPECT_GT(energy.at("adc"), energy.at("dac"));
  EXPECT_GT(energy.at("adc"), energy.at("array_read"));
}

TEST(CrossbarUnit, AttentionIsNotStaticSoItRunsDigitally) {
  EXPECT_FALSE(crossbar_supports(make_op(
      "attn", ir::AttentionAttrs{.b = 1, .h = 2, .kv_heads = 2, .s = 8, .kv_len = 8, .d = 4})));
  EXPECT_FALSE(crossbar_supports(
      make_op("scores", ir::GemmAttrs{.m = 8, .n = 8, .k = 4, .batch = 2, .b_shared = false})));
  EXPECT_TRUE(crossbar_supports(make_op("fc", ir::GemmAttrs{.m = 8, .n = 8, .k = 4})));
}

// One 64 x 64 array: a unit's head, its cell and ADC written by each test.
constexpr const char* kOneArray = R"(name: t
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 10}}
units:
  - name: x
    kind: crossbar
    tiles: 1
    arrays_per_tile: 1
    rows: 64
    cols: 64
    read_ns: 10
)";

std::string parse_error(const std::string& unit_keys) {
  const std::string text = kOneArray + unit_keys;
  return testing::error_text([&] { parse_soc_config(parse_config_text(text, "arch.yaml")); });
}

TEST(CrossbarParams, AnAdcCannotServeMoreColumnsThanTheArrayHas) {
  const std::string error = parse_error(
      "    cell: {bits_per_cell: 2}\n"
      "    adc: {bits: 8, columns_per_adc: 128, sample_rate_gsps: 1, energy_pj: 1}\n");
  EXPECT_NE(error.find("columns_per_adc"), std::string::npos) << error;
}

TEST(CrossbarParams, APeripheryPartNeedsACountOfAtLeastOne) {
  const std::string error = parse_error(
      "    cell: {bits_per_cell: 2}\n"
      "    adc: {bits: 8, columns_per_adc: 64, sample_rate_gsps: 1, energy_pj: 1}\n"
      "    periphery: [{name: bus, count: 0, area_mm2: 0.1, power_mw: 1}]\n");
  EXPECT_NE(error.find("arch.yaml:14"), std::string::npos) << error;
  EXPECT_NE(error.find("count"), std::string::npos) << error;
}

TEST(CrossbarParams, ABufferOrBusClockGoesWithItsWidth) {
  const std::string error = parse_error(
      "    cell: {bits_per_cell: 2}\n"
      "    adc: {bits: 8, columns_per_adc: 64, sample_rate_gsps: 1, energy_pj: 1}\n"
      "    bus: {width_bits: 1024}\n");
  EXPECT_NE(error.find("arch.yaml:14"), std::string::npos) << error;
  EXPECT_NE(error.find("bus.width_bits needs bus.clock_ghz"), std::string::npos) << error;
  const std::string untimed = parse_error(
      "    cell: {bits_per_cell: 2}\n"
      "    adc: {bits: 8, columns_per_adc: 64, sample_rate_gsps: 1, energy_pj: 1}\n"
      "    buffer: {clock_ghz: 1}\n");
  EXPECT_NE(untimed.find("arch.yaml:14"), std::string::npos) << untimed;
  EXPECT_NE(untimed.find("buffer.clock_ghz times a path of width_bits 0"), std::string::npos)
      << untimed;
}

// A key that acts only beside others is refused where they leave it nothing to change: the
// range of an ADC that resolves every level of a column (64 rows x 3 levels = 192 < 2^8), a
// cell's resistance without wire resistance, the device when both its energies are given.
TEST(CrossbarParams, KeysTheOtherKeysLeaveNothingToChangeAreRefused) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"    cell: {bits_per_cell: 2}\n"
       "    adc: {bits: 8, columns_per_adc: 64, sample_rate_gsps: 1, full_scale_fraction: 0.5}\n",
       "adc.full_scale_fraction: the 8-bit ADC resolves all 192 levels"},
      {"    cell: {bits_per_cell: 2}\n"
       "    adc: {bits: 8, columns_per_adc: 64, sample_rate_gsps: 1, range: calibrated}\n",
       "adc.range: the 8-bit ADC resolves all 192 levels"},
      {"    cell: {bits_per_cell: 2}\n"
       "    adc: {bits: 4, columns_per_adc: 64, sample_rate_gsps: 1}\n"
       "    analog: {cell_on_resistance_ohm: 6000}\n",
       "wire_resistance_ohm: 0"},
      {"    cell: {device: pcm, bits_per_cell: 2, read_energy_fj: 1, write_energy_pj: 5}\n"
       "    adc: {bits: 4, columns_per_adc: 64, sample_rate_gsps: 1}\n",
       "cell.device prices"}};
  for (const auto& [keys, expected] : cases) {
    const std::string error = parse_error(keys);
    EXPECT_NE(error.find(expected), std::string::npos) << error;
    EXPECT_NE(error.find("arch.yaml:"), std::string::npos) << error;
  }
  // With a 4-bit ADC the range matters, and with wires the cell's resistance.
  const std::string text = std::string(kOneArray) +
                           "    cell: {bits_per_cell: 2}\n"
                           "    adc: {bits: 4, columns_per_adc: 64, sample_rate_gsps: 1, "
                           "full_scale_fraction: 0.5}\n"
                           "    analog: {wire_resistance_ohm: 2.5, cell_on_resistance_ohm: 6000}\n";
  EXPECT_NO_THROW(parse_soc_config(parse_config_text(text, "arch.yaml")));
}

}  // namespace
}  // namespace polyarch::archs::crossbar
