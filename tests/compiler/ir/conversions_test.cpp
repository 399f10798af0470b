#include "compiler/ir/conversions.h"

#include <gtest/gtest.h>

#include "tests/support/ir_builders.h"

namespace polyarch::ir {
namespace {

Op gemm(int64_t m, int64_t n, int64_t k, std::optional<DType> dtype) {
  Op op = test_support::make_op("g", GemmAttrs{.m = m, .n = n, .k = k});
  op.dtype = dtype;
  return op;
}

// A 4x8x16 GEMM reads A (4 x 16) and B (16 x 8) once each and writes C (4 x 8).
TEST(Conversions, ANarrowOpRunWiderWidensEveryElementReadAndNarrowsEveryResult) {
  const Conversions fp8 = converted_operands(gemm(4, 8, 16, DType::kFp8E4M3), DType::kFp16);
  EXPECT_EQ(fp8.widened, 4 * 16 + 16 * 8);
  EXPECT_EQ(fp8.narrowed, 4 * 8);
  EXPECT_EQ(fp8.total(), 224);
}

TEST(Conversions, NoneWhereTheUnitRunsTheTypeOrTheOpIsWide) {
  EXPECT_EQ(converted_operands(gemm(4, 8, 16, DType::kInt4), DType::kInt4).total(), 0);
  // An fp32 op on an int8 array is a quantisation the run asked for, not a conversion.
  EXPECT_EQ(converted_operands(gemm(4, 8, 16, DType::kFp32), DType::kInt8).total(), 0);
  EXPECT_EQ(converted_operands(gemm(4, 8, 16, std::nullopt), DType::kFp16).total(), 0);
}

}  // namespace
}  // namespace polyarch::ir
