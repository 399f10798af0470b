#include "archs/systolic/operand_types.h"

#include <gtest/gtest.h>

#include "archs/systolic/cost_model.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::systolic {
namespace {

// A 32x32 output-stationary int8 array whose buffers hold every operand: each is fetched once.
SystolicParams int8_array() {
  SystolicParams params;
  params.name = "sa";
  params.rows = 32;
  params.cols = 32;
  params.dataflow = Dataflow::kOutputStationary;
  params.dtype = ir::DType::kInt8;
  params.acc_dtype = ir::DType::kInt32;
  params.buffers = {.ifmap_kib = 1 << 10, .filter_kib = 1 << 10, .ofmap_kib = 1 << 10};
  return params;
}

ir::Op gemm(ir::DType dtype) {
  ir::Op op = test_support::make_op("g", ir::GemmAttrs{.m = 64, .n = 64, .k = 64});
  op.dtype = dtype;
  return op;
}

// int4 codes sign-extend into the int8 PEs: the same folds and cycles, and the operands stay
// packed two to a byte. By hand: A and B are 64 x 64 each (8192 elements read once), C 4096.
TEST(SystolicOperandTypes, AnInt8ArrayRunsInt4AtItsInt8CyclesWithHalfTheBytes) {
  const SystolicParams params = int8_array();
  EXPECT_EQ(systolic_run_dtype(params, gemm(ir::DType::kInt4)), ir::DType::kInt4);
  EXPECT_EQ(systolic_type_refusal(params, gemm(ir::DType::kInt4)), std::nullopt);
  const SystolicPlan int8 = plan_op(params, gemm(ir::DType::kInt8));
  const SystolicPlan int4 = plan_op(params, gemm(ir::DType::kInt4));
  EXPECT_EQ(int4.compute_cycles, int8.compute_cycles);
  EXPECT_EQ(int8.dram_read_bytes, 8192);
  EXPECT_EQ(int8.dram_write_bytes, 4096);
  EXPECT_EQ(int4.dram_read_bytes, 4096);
  EXPECT_EQ(int4.dram_write_bytes, 2048);
}

TEST(SystolicOperandTypes, AnIntegerArrayRefusesFp8NamingUnitOpAndTypes) {
  const std::optional<std::string> refusal =
      systolic_type_refusal(int8_array(), gemm(ir::DType::kFp8E4M3));
  ASSERT_TRUE(refusal);
  EXPECT_NE(refusal->find("'sa' has int8 PEs"), std::string::npos);
  EXPECT_NE(refusal->find("'g' in fp8_e4m3"), std::string::npos);
}

// A bf16 array has no 8-bit datapath: fp8 operands are fetched as stored (1 byte each) and
// widened at its edge, one element per edge port and cycle (32 + 32 ports).
TEST(SystolicOperandTypes, AFloatArrayConvertsFp8AtItsEdgeFromStoredBytes) {
  SystolicParams params = int8_array();
  params.dtype = ir::DType::kBf16;
  params.acc_dtype = ir::DType::kFp32;
  const ir::Op fp8 = gemm(ir::DType::kFp8E4M3);
  EXPECT_EQ(systolic_run_dtype(params, fp8), ir::DType::kBf16);
  EXPECT_EQ(systolic_type_refusal(params, fp8), std::nullopt);
  EXPECT_EQ(systolic_stored_dtype(params, fp8), ir::DType::kFp8E4M3);
  EXPECT_EQ(plan_op(params, fp8).dram_read_bytes, 8192);
  EXPECT_EQ(systolic_conversions_per_cycle(params), 64);
}

}  // namespace
}  // namespace polyarch::archs::systolic
