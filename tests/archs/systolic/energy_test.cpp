#include "archs/systolic/energy.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace polyarch::archs::systolic
