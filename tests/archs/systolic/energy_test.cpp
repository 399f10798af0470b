#include "archs/systolic/energy.h"

#include <gtest/gtest.h>

#include <string>

#include "archs/registry.h"

namespace polyarch::archs::systolic {
namespace {

SystolicParams array(ir::DType dtype, ir::DType acc_dtype) {
  SystolicParams params;
  params.name = "mxu";
  params.rows = 32;
  params.cols = 32;
  params.dataflow = Dataflow::kWeightStationary;
  params.dtype = dtype;
  params.acc_dtype = acc_dtype;
  params.buffers = {256, 256, 128, true};
  return params;
}

// A GEMM's activity as the simulation reports it (counts chosen, not simulated).
sim::OpResult gemm_activity() {
  sim::OpResult op;
  op.name = "gemm";
  op.unit = "mxu";
  op.unit_clock_ghz = 1.0;
  op.total_cycles = 10000;
  op.macs = 64 * 64 * 512;
  op.sram["ifmap"] = {64 * 512 * 2, 0};
  op.sram["filter"] = {64 * 64 * 2, 0};
  op.sram["ofmap"] = {0, 512 * 64 * 2};
  op.dram_bytes_read = 100000;
  op.dram_bytes_written = 20000;
  return op;
}

double total(const sim::EnergyByAction& energy) {
  double sum = 0.0;
  for (const auto& [action, joules] : energy) sum += joules;
  return sum;
}

class SystolicEnergy : public ::testing::Test {
 protected:
  sim::TechTable tech = archs::resolve_tech("28nm").table;
  sim::EnergyContext context{tech, "hbm2"};
};

TEST_F(SystolicEnergy, ReportsEveryAction) {
  sim::EnergyByAction energy =
      systolic_op_energy(array(ir::DType::kInt8, ir::DType::kInt32), gemm_activity(), context);
  for (const char* action : {"mac", "pe_register", "sram_ifmap", "sram_filter", "sram_ofmap",
                             "sram_fill", "dram", "leakage"}) {
    ASSERT_TRUE(energy.count(action)) << action;
    EXPECT_GT(energy[action], 0.0) << action;
  }
  EXPECT_EQ(energy.size(), 8u);
}

TEST_F(SystolicEnergy, MacEnergyIsMacsTimesTableValue) {
  sim::OpResult op = gemm_activity();
  sim::EnergyByAction energy =
      systolic_op_energy(array(ir::DType::kInt8, ir::DType::kInt32), op, context);
  const double mac_pj = tech.mult_pj(ir::DType::kInt8) + tech.add_pj(ir::DType::kInt32);
  EXPECT_DOUBLE_EQ(energy["mac"], static_cast<double>(op.macs) * mac_pj * 1e-12);
}

TEST_F(SystolicEnergy, DramEnergyIsBitsTimesPerBitOfTheDramKind) {
  sim::OpResult op = gemm_activity();
  SystolicParams params = array(ir::DType::kInt8, ir::DType::kInt32);
  for (const std::string kind : {"ddr4", "hbm2", "lpddr5"}) {
    sim::EnergyContext dram_context{tech, kind};
    sim::EnergyByAction energy = systolic_op_energy(params, op, dram_context);
    EXPECT_DOUBLE_EQ(energy["dram"], 120000.0 * 8.0 * tech.dram_pj_per_bit(kind) * 1e-12) << kind;
  }
}

TEST_F(SystolicEnergy, LeakageIsAreaTimesDensityTimesLatency) {
  SystolicParams params = array(ir::DType::kInt8, ir::DType::kInt32);
  sim::OpResult op = gemm_activity();
  const double leakage = systolic_op_energy(params, op, context)["leakage"];
  EXPECT_DOUBLE_EQ(leakage, systolic_area_mm2(params, tech) * 15.5e-3 * op.latency_s());
  op.total_cycles *= 3;
  EXPECT_DOUBLE_EQ(systolic_op_energy(params, op, context)["leakage"], 3.0 * leakage);
}

TEST_F(SystolicEnergy, SramEnergyIsAccessesTimesBitsTimesPerBit) {
  SystolicParams params = array(ir::DType::kInt8, ir::DType::kInt32);
  sim::OpResult op = gemm_activity();
  sim::EnergyByAction energy = systolic_op_energy(params, op, context);
  // ifmap: 8-bit elements, a 32 x 8 = 256-bit row access into one 128 KiB half.
  EXPECT_DOUBLE_EQ(energy["sram_ifmap"], static_cast<double>(op.sram["ifmap"].reads) * 8.0 *
                                             tech.sram_access_pj_per_bit(128, 256) * 1e-12);
  // ofmap: 32-bit partial sums into one 64 KiB half.
  EXPECT_DOUBLE_EQ(energy["sram_ofmap"], static_cast<double>(op.sram["ofmap"].writes) * 32.0 *
                                             tech.sram_access_pj_per_bit(64, 1024) * 1e-12);
}

TEST_F(SystolicEnergy, MoreDramTrafficCostsMoreEnergy) {
  SystolicParams params = array(ir::DType::kInt8, ir::DType::kInt32);
  sim::OpResult op = gemm_activity();
  const double base = total(systolic_op_energy(params, op, context));
  op.dram_bytes_read *= 4;
  EXPECT_GT(total(systolic_op_energy(params, op, context)), base);
}

TEST_F(SystolicEnergy, Int8CostsLessThanFp32ForTheSameOp) {
  sim::OpResult op = gemm_activity();
  sim::EnergyByAction int8 =
      systolic_op_energy(array(ir::DType::kInt8, ir::DType::kInt32), op, context);
  sim::EnergyByAction fp32 =
      systolic_op_energy(array(ir::DType::kFp32, ir::DType::kFp32), op, context);
  EXPECT_LT(int8["mac"], fp32["mac"]);
  EXPECT_LT(total(int8), total(fp32));
}

TEST_F(SystolicEnergy, AreaCountsPesAndBuffers) {
  SystolicParams params = array(ir::DType::kInt8, ir::DType::kInt32);
  const double pe_um2 = tech.mult_area_um2(ir::DType::kInt8) +
                        tech.add_area_um2(ir::DType::kInt32) + 48.0 * tech.register_bit_area_um2();
  EXPECT_DOUBLE_EQ(systolic_area_mm2(params, tech),
                   1024.0 * pe_um2 * 1e-6 + 640.0 * tech.sram_area_mm2(1.0));
}

// A 2 x 2 array of Eyeriss's PE: int16 operands, int32 partial sums, 1 KiB single-buffered
// buffers, the scratchpads at their defaults (filter 224, ifmap 12, psum 24 words).
SystolicParams small_eyeriss_array(Dataflow dataflow) {
  SystolicParams params;
  params.name = "pe_array";
  params.rows = 2;
  params.cols = 2;
  params.dataflow = dataflow;
  params.dtype = ir::DType::kInt16;
  params.acc_dtype = ir::DType::kInt32;
  params.buffers = {1, 1, 1, false};
  return params;
}

// 1000 MACs and nothing else: no buffer access, no DRAM traffic, no edge shift.
sim::OpResult thousand_macs() {
  sim::OpResult op;
  op.name = "conv";
  op.unit = "pe_array";
  op.unit_clock_ghz = 0.2;
  op.total_cycles = 250;
  op.macs = 1000;
  return op;
}

// Hand derivations below use configs/tech/65nm.yaml: mult_pj.int16 1.22264, add_pj.int32
// 0.15776, register_pj_per_bit 0.0141984, area_um2 mult.int16 1311, add.int32 205.5,
// register_bit 6.783, sram.area_mm2_per_kib 0.006671, SRAM curve 8 KiB 0.2465 and 32 KiB 0.493
// pJ/bit at 64-bit reference words.
class RowStationaryEnergy : public ::testing::Test {
 protected:
  sim::TechTable tech = archs::resolve_tech("65nm").table;
  sim::EnergyContext context{tech, "lpddr4"};
};

TEST_F(RowStationaryEnergy, ClockedBitsAreScratchpadRegistersPlusPipelineRegisters) {
  // Per PE: ifmap scratchpad 12 x 16 = 192, psum scratchpad 24 x 32 = 768, pipeline registers
  // 2 x 16 + 32 = 64: 1024 bits; 4 PEs: 4096. The filter scratchpad is SRAM, not flip-flops.
  EXPECT_DOUBLE_EQ(systolic_clocked_bits(small_eyeriss_array(Dataflow::kRowStationary)), 4096.0);
}

TEST_F(RowStationaryEnergy, AreaAddsScratchpadRegistersAndFilterSram) {
  // Per PE: multiplier 1311 + adder 205.5 + 1024 register bits x 6.783 = 6945.792, + the filter
  // scratchpad, 224 x 16 bits = 448 B = 0.4375 KiB x 0.006671 mm^2/KiB = 2918.5625 um^2:
  // 11380.8545 um^2; 4 PEs = 0.045523418 mm^2; buffers 3 KiB x 0.006671 = 0.020013 mm^2.
  EXPECT_NEAR(systolic_area_mm2(small_eyeriss_array(Dataflow::kRowStationary), tech), 0.065536418,
              1e-12);
}

TEST_F(RowStationaryEnergy, PerMacEnergyReadsFilterSramAndRegisterScratchpads) {
  const sim::EnergyByAction energy =
      systolic_op_energy(small_eyeriss_array(Dataflow::kRowStationary), thousand_macs(), context);
  // MAC: 1.22264 + 0.15776 = 1.3804 pJ.
  EXPECT_NEAR(energy.at("mac"), 1000.0 * 1.3804e-12, 1e-22);
  // Registers: an ifmap read (16) and a psum read and write (2 x 32) = 80 bits x 0.0141984 =
  // 1.135872 pJ.
  EXPECT_NEAR(energy.at("pe_register"), 1000.0 * 1.135872e-12, 1e-22);
  // Filter read: the curve between 8 and 32 KiB is linear in sqrt(KiB) through the origin
  // (0.493 / 0.2465 = 2 = sqrt(32 / 8)), so a 0.4375 KiB macro costs 0.2465 x sqrt(0.4375 / 8)
  // = 0.0576449 pJ/bit; a 16-bit access to 64-bit reference words pays 4x: 0.2305796 pJ/bit;
  // 16 bits: 3.6892742 pJ.
  EXPECT_NEAR(energy.at("pe_filter_spad"), 1000.0 * 3.6892742e-12, 1e-16);
}

TEST_F(RowStationaryEnergy, OsWsIsKeepTheirPipelineRegisterModel) {
  // os, ws, is: 2 x 16 + 32 = 64 flip-flop bits per PE and no scratchpad, whatever the
  // scratchpads say; per MAC os rewrites both operands and its accumulator (64 bits), ws and
  // is advance one operand and the partial sum (48 bits).
  const double pe_um2 = 1311.0 + 205.5 + 64.0 * 6.783;
  for (const Dataflow dataflow :
       {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
    SystolicParams params = small_eyeriss_array(dataflow);
    params.scratchpads = {.filter_words = 9, .ifmap_words = 99, .psum_words = 999};
    SCOPED_TRACE(std::string(dataflow_name(dataflow)));
    EXPECT_DOUBLE_EQ(systolic_clocked_bits(params), 256.0);
    EXPECT_NEAR(systolic_area_mm2(params, tech), 4.0 * pe_um2 * 1e-6 + 0.020013, 1e-12);
    const sim::EnergyByAction energy = systolic_op_energy(params, thousand_macs(), context);
    const double bits_per_mac = dataflow == Dataflow::kOutputStationary ? 64.0 : 48.0;
    EXPECT_NEAR(energy.at("pe_register"), 1000.0 * bits_per_mac * 0.0141984e-12, 1e-22);
    EXPECT_FALSE(energy.count("pe_filter_spad"));
    EXPECT_EQ(energy, systolic_op_energy(small_eyeriss_array(dataflow), thousand_macs(), context));
  }
}

}  // namespace
}  // namespace polyarch::archs::systolic
