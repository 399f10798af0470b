// The dataflow fabric's clocked storage (every PE's register and stage words and its switch's
// buffers, counted by hand from the parameters, 32-bit words) and its area: the parts priced from
// the 28 nm table's entries and the published areas of the parts it has none for, summed by hand.
#include "archs/dataflow/energy.h"

#include <gtest/gtest.h>

#include "archs/registry.h"
#include "tests/archs/dataflow/dataflow_fixture.h"

namespace polyarch::archs::dataflow::test {
namespace {

TEST(DataflowEnergy, ClockedBitsAreEveryPesRegistersStagesAndSwitchBuffers) {
  DataflowParams params = small_cgra();
  // Per PE, one lane: (8 registers + 1 stage) x 32 bits + 4 directions x 1 link x 32 bits = 416;
  // 16 PEs.
  EXPECT_DOUBLE_EQ(dataflow_clocked_bits(params), 16.0 * 416.0);
  // A Plasticine PCU's shape: 16 lanes, 6 stages, 2 links per direction, on the same grid:
  // (8 + 6) x 16 x 32 + 4 x 2 x 16 x 32 = 7168 + 4096 = 11264 bits per PE.
  params.pe.lanes = 16;
  params.pe.stages = 6;
  params.network.links_per_direction = 2;
  EXPECT_DOUBLE_EQ(dataflow_clocked_bits(params), 16.0 * 11264.0);
}

// configs/tech/28nm.yaml's entries, copied by hand: an fp32 adder and multiplier (um^2), a
// register bit (um^2) and a KiB of SRAM (mm^2).
constexpr double kFp32AddUm2 = 1576.11;
constexpr double kFp32MultUm2 = 2900.59;
constexpr double kRegisterBitUm2 = 1.70344;
constexpr double kSramMm2PerKib = 0.001486;

TEST(DataflowArea, AScalarCgraIsItsFunctionalUnitsRegistersSwitchBuffersAndScratchpads) {
  const sim::ResolvedTech resolved = archs::resolve_tech("28nm");
  DataflowParams params = small_cgra();
  // Per PE: one fp32 adder and multiplier (the stage) and one fp32 MAC (multiplier and fp32
  // accumulator adder), 416 register and switch-buffer bits; 16 PEs; four 64 KiB scratchpads.
  const double pe_um2 = 2.0 * (kFp32AddUm2 + kFp32MultUm2) + 416.0 * kRegisterBitUm2;
  const double plain = 16.0 * pe_um2 * 1e-6 + 4.0 * 64.0 * kSramMm2PerKib;
  EXPECT_NEAR(dataflow_area_mm2(params, resolved.table), plain, 1e-9);
  // Published parts add their areas: 16 PEs' FIFOs and control, 4 memory PEs' logic, the DRAM
  // interface; a published network (all its switches) replaces the 16 PEs' switch buffers
  // (4 directions x 1 link x 32 bits each).
  params.pe.fifo_area_mm2 = 0.01;
  params.pe.control_area_mm2 = 0.002;
  params.memory.logic_area_mm2 = 0.03;
  params.dram_interface_area_mm2 = 0.5;
  params.network.area_mm2 = 0.8;
  const double switch_buffers = 16.0 * 128.0 * kRegisterBitUm2 * 1e-6;
  EXPECT_NEAR(dataflow_area_mm2(params, resolved.table),
              plain - switch_buffers + 16.0 * 0.012 + 4.0 * 0.03 + 0.5 + 0.8, 1e-9);
}

TEST(DataflowArea, PlasticinePresetSumsTheTableItsPartsComeFrom) {
  const sim::ResolvedTech resolved = archs::resolve_tech("28nm");
  // Prabhakar et al., ISCA 2017, Table 5: per PCU FIFOs 0.082 + control 0.001 mm^2, per PMU
  // 0.055 mm^2 beside its scratchpad, interconnect 18.796, memory controller 5.616 mm^2. The
  // table prices a PCU's 16 x 6 fp32 FUs, 16 MACs (the widest MAC type, fp32) and
  // (36 registers, the paper's 6 per functional unit over 6 stages, + 6 stage words) x 16 lanes
  // x 32 bits, and 64 scratchpads of 256 KiB.
  const double pcu_um2 = 16.0 * 7.0 * (kFp32AddUm2 + kFp32MultUm2) + 21504.0 * kRegisterBitUm2;
  const double expected = 64.0 * (pcu_um2 * 1e-6 + 0.083) +
                          64.0 * (256.0 * kSramMm2PerKib + 0.055) + 18.796 + 5.616;
  const double area = dataflow_area_mm2(shipped_params("plasticine_like.yaml"), resolved.table);
  EXPECT_NEAR(area, expected, 1e-6);
  // 92.02 mm^2 of the paper's 112.796: the rest is the table's FUs, registers and SRAM against
  // the paper's own synthesis (a PCU's FUs 0.622 mm^2 against 0.50 here).
  EXPECT_NEAR(area, 92.02, 0.01);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
