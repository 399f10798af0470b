// Crossbar energy by action: cell and ADC energies from the technology table's entries for the
// unit's device and ADC bits unless the arch gives its own, and the closed forms of the actions.
#include "archs/crossbar/energy.h"

#include <gtest/gtest.h>

#include <string>

#include "archs/crossbar/cell_tech.h"
#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/kind.h"
#include "archs/registry.h"
#include "archs/soc/soc_config.h"
#include "sim/energy/tech_registry.h"
#include "tests/base/error_capture.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::crossbar {
namespace {

using test_support::make_op;

// A one-crossbar SoC at `technology` whose unit has `cell:` and `adc:` maps as given: 4 arrays of
// 64 x 64 cells, 8-bit weights over 2-bit cells, 8-bit inputs through 1-bit DACs.
constexpr const char* kTableAdc = "{bits: 8, columns_per_adc: 64, sample_rate_gsps: 1}";

SocConfig soc_with(const std::string& cell, const std::string& adc = kTableAdc,
                   const std::string& technology = "28nm", const std::string& more_keys = "") {
  const std::string text = "name: t\nclock_ghz: 1.0\ntechnology: " + technology +
                           R"(
memory: {dram: {bandwidth_gbps: 10}}
units:
  - name: x
    kind: crossbar
    tiles: 1
    arrays_per_tile: 4
    rows: 64
    cols: 64
    cell: )" + cell + R"(
    weight_bits: 8
    input_bits: 8
    adc: )" + adc + R"(
    read_ns: 10
)" + more_keys;
  return parse_soc_config(parse_config_text(text, "arch.yaml"));
}

const CrossbarUnitConfig& unit_of(const SocConfig& soc) {
  return dynamic_cast<const CrossbarUnitConfig&>(*soc.units.front());
}

// Energy by action of `op` as the unit's plan counts it.
sim::EnergyByAction energy_of(const SocConfig& soc, const ir::Op& op) {
  const CrossbarParams& params = unit_of(soc).params();
  sim::OpResult result;
  result.unit_clock_ghz = 1.0;
  result.total_cycles = 1000;
  return crossbar_op_energy(params, result, plan_op(params, op).activity, {soc.tech.table, "ddr4"});
}

ir::Op small_gemm() { return make_op("fc", ir::GemmAttrs{.m = 4, .n = 16, .k = 64}); }
// 512 x 512 weights x 4 cells need 8 x 32 arrays of the 4: reprogrammed pass by pass.
ir::Op big_gemm() { return make_op("big", ir::GemmAttrs{.m = 2, .n = 512, .k = 512}); }

TEST(CrossbarEnergy, CellAndAdcEnergiesDefaultToTheTechTableEntries) {
  const SocConfig soc = soc_with("{device: pcm, bits_per_cell: 2}");
  const CrossbarEventEnergy event = crossbar_event_energy(unit_of(soc).params(), soc.tech.table);
  EXPECT_DOUBLE_EQ(event.cell_read_fj, cell_read_fj(soc.tech.table, "pcm"));
  EXPECT_DOUBLE_EQ(event.cell_write_pj, cell_write_pj(soc.tech.table, "pcm"));
  // The table's ADC rule (Walden figure of merit x 2^bits) at the unit's 8 bits.
  EXPECT_DOUBLE_EQ(event.adc_pj, soc.tech.table.adc_pj_per_conversion(8));
}

TEST(CrossbarEnergy, WithoutADeviceTheCellIsRram) {
  const SocConfig soc = soc_with("{bits_per_cell: 2}");
  EXPECT_EQ(unit_of(soc).params().cell.device, "rram");
  EXPECT_DOUBLE_EQ(crossbar_event_energy(unit_of(soc).params(), soc.tech.table).cell_read_fj,
                   cell_read_fj(soc.tech.table, "rram"));
}

TEST(CrossbarEnergy, ExplicitEnergiesOverrideTheTable) {
  const SocConfig soc =
      soc_with("{bits_per_cell: 2, read_energy_fj: 3.5, write_energy_pj: 0.25}",
               "{bits: 8, columns_per_adc: 64, sample_rate_gsps: 1, energy_pj: 2.0}");
  const CrossbarEventEnergy event = crossbar_event_energy(unit_of(soc).params(), soc.tech.table);
  EXPECT_DOUBLE_EQ(event.cell_read_fj, 3.5);
  EXPECT_DOUBLE_EQ(event.cell_write_pj, 0.25);
  EXPECT_DOUBLE_EQ(event.adc_pj, 2.0);
}

TEST(CrossbarEnergy, ArrayReadOfOneGemmIsCellReadsTimesTheReadEnergy) {
  const SocConfig soc = soc_with("{device: rram, bits_per_cell: 2}");
  // M vectors x 8 one-bit input slices x K rows x N weights x 4 two-bit cells per weight.
  const double cell_reads = 4.0 * 8 * 64 * (16 * 4);
  EXPECT_EQ(plan_op(unit_of(soc).params(), small_gemm()).activity.cell_reads, 131072);
  const double read_j = cell_read_fj(soc.tech.table, "rram") * 1e-15;
  EXPECT_DOUBLE_EQ(energy_of(soc, small_gemm()).at("array_read"), cell_reads * read_j);
  EXPECT_DOUBLE_EQ(energy_of(soc, small_gemm()).at("reprogram"), 0.0);  // the weights fit
}

TEST(CrossbarEnergy, ReprogrammingIsCellsWrittenTimesTheWriteEnergy) {
  const SocConfig soc = soc_with("{device: rram, bits_per_cell: 2}");
  const CrossbarPlan plan = plan_op(unit_of(soc).params(), big_gemm());
  ASSERT_GT(plan.passes, 1);
  EXPECT_EQ(plan.activity.cells_reprogrammed, int64_t{512} * 512 * 4);
  EXPECT_DOUBLE_EQ(energy_of(soc, big_gemm()).at("reprogram"),
                   512.0 * 512 * 4 * cell_write_pj(soc.tech.table, "rram") * 1e-12);
}

TEST(CrossbarEnergy, ChangingTheDeviceScalesCellActionsByTheTableRatio) {
  const SocConfig rram = soc_with("{device: rram, bits_per_cell: 2}");
  const SocConfig pcm = soc_with("{device: pcm, bits_per_cell: 2}");
  const sim::TechTable& tech = rram.tech.table;
  EXPECT_NEAR(energy_of(pcm, small_gemm()).at("array_read") /
                  energy_of(rram, small_gemm()).at("array_read"),
              cell_read_fj(tech, "pcm") / cell_read_fj(tech, "rram"), 1e-12);
  EXPECT_NEAR(
      energy_of(pcm, big_gemm()).at("reprogram") / energy_of(rram, big_gemm()).at("reprogram"),
      cell_write_pj(tech, "pcm") / cell_write_pj(tech, "rram"), 1e-12);
  // Everything but the cell is the same.
  EXPECT_DOUBLE_EQ(energy_of(pcm, small_gemm()).at("adc"), energy_of(rram, small_gemm()).at("adc"));
}

TEST(CrossbarEnergy, SramCellsFollowTheNodeResistiveCellsDoNot) {
  const auto read_energy = [](const std::string& device, const std::string& node) {
    const SocConfig soc = soc_with("{device: " + device + ", bits_per_cell: 2}", kTableAdc, node);
    return energy_of(soc, small_gemm()).at("array_read");
  };
  EXPECT_DOUBLE_EQ(read_energy("rram", "7nm"), read_energy("rram", "28nm"));
  const double sram_ratio = cell_read_fj(resolve_tech("7nm").table, "sram") /
                            cell_read_fj(resolve_tech("28nm").table, "sram");
  EXPECT_NEAR(read_energy("sram", "7nm") / read_energy("sram", "28nm"), sram_ratio, 1e-12);
  EXPECT_LT(sram_ratio, 0.2);
}

TEST(CrossbarEnergy, ArchEnergyOverridesOfTheTableReachTheCell) {
  SocConfig soc = soc_with("{device: pcm, bits_per_cell: 2}");
  sim::apply_tech_overrides(soc.tech.table,
                            parse_config_text("crossbar_cell: {pcm: {read_fj: 7.0}}", "arch.yaml"));
  EXPECT_DOUBLE_EQ(crossbar_event_energy(unit_of(soc).params(), soc.tech.table).cell_read_fj, 7.0);
}

TEST(CrossbarParams, NegativeCellEnergyNamesItsKeyAndLine) {
  const std::string error =
      testing::error_text([] { soc_with("{device: rram, bits_per_cell: 2, read_energy_fj: -1}"); });
  EXPECT_NE(error.find("arch.yaml:"), std::string::npos) << error;
  EXPECT_NE(error.find("cell.read_energy_fj"), std::string::npos) << error;
}

TEST(CrossbarParams, UnknownCellDeviceSuggestsTheNearest) {
  const std::string error =
      testing::error_text([] { soc_with("{device: rran, bits_per_cell: 2}"); });
  EXPECT_NE(error.find("did you mean 'rram'"), std::string::npos) << error;
}

TEST(CrossbarUnit, DescribeNamesTheDeviceAndOnlyTheEnergiesTheArchGives) {
  const nlohmann::ordered_json tech_priced =
      unit_of(soc_with("{device: pcm, bits_per_cell: 2}")).describe();
  EXPECT_EQ(tech_priced["cell"]["device"], "pcm");
  EXPECT_TRUE(tech_priced["cell"]["read_energy_fj"].is_null());
  EXPECT_TRUE(tech_priced["adc"]["energy_pj"].is_null());
  const nlohmann::ordered_json given =
      unit_of(soc_with("{device: pcm, bits_per_cell: 2, read_energy_fj: 3.5}")).describe();
  EXPECT_EQ(given["cell"]["read_energy_fj"], 3.5);
  EXPECT_NE(tech_priced.dump(), given.dump());  // a different decision-cache key
}

// A periphery of 3 parts of 0.5 mm^2 and 2 mW each: the unit's area grows by 1.5 mm^2 and an
// op of 1000 cycles at 1 GHz (1 us) draws 6 mW for it, 6 nJ, and leaks over the larger area.
TEST(CrossbarEnergy, PeripheryAddsItsAreaAndDrawsItsPowerWhileTheOpRuns) {
  const SocConfig plain = soc_with("{bits_per_cell: 2}");
  const SocConfig soc =
      soc_with("{bits_per_cell: 2}", kTableAdc, "28nm",
               "    periphery: [{name: buffer, count: 3, area_mm2: 0.5, power_mw: 2}]\n");
  const double plain_mm2 = crossbar_area_mm2(unit_of(plain).params());
  EXPECT_NEAR(crossbar_area_mm2(unit_of(soc).params()), plain_mm2 + 1.5, 1e-12);
  const sim::EnergyByAction energy = energy_of(soc, small_gemm());
  EXPECT_NEAR(energy.at("periphery"), 6e-3 * 1e-6, 1e-18);
  // 28 nm leakage, 15.5 mW/mm^2 at the reference temperature, over the whole area for 1 us.
  EXPECT_NEAR(energy.at("leakage"), (plain_mm2 + 1.5) * 15.5e-3 * 1e-6, 1e-18);
  EXPECT_DOUBLE_EQ(energy_of(plain, small_gemm()).at("periphery"), 0.0);
}

}  // namespace
}  // namespace polyarch::archs::crossbar
