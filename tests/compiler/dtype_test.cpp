#include "compiler/ir/dtype.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace polyarch::ir {
namespace {

TEST(DType, NamesRoundTripThroughParse) {
  for (const std::string& name : all_dtype_names()) {
    auto parsed = parse_dtype(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_EQ(dtype_name(*parsed), name);
  }
}

TEST(DType, BytesMatchTheFormatWidth) {
  EXPECT_EQ(dtype_bytes(DType::kInt8), 1);
  EXPECT_EQ(dtype_bytes(DType::kInt16), 2);
  EXPECT_EQ(dtype_bytes(DType::kInt32), 4);
  EXPECT_EQ(dtype_bytes(DType::kFp16), 2);
  EXPECT_EQ(dtype_bytes(DType::kBf16), 2);
  EXPECT_EQ(dtype_bytes(DType::kFp32), 4);
  EXPECT_EQ(dtype_bytes(DType::kInt64), 8);
  EXPECT_EQ(dtype_bytes(DType::kUint8), 1);
  EXPECT_EQ(dtype_bytes(DType::kBool), 1);
  EXPECT_EQ(dtype_bytes(DType::kFp64), 8);
  EXPECT_EQ(dtype_bytes(DType::kFp8E4M3), 1);
  EXPECT_EQ(dtype_bytes(DType::kFp8E5M2), 1);
}

TEST(DType, Int4PacksTwoElementsToAByteAndHasNoWholeByteSize) {
  EXPECT_EQ(dtype_bits(DType::kInt4), 4);
  EXPECT_EQ(storage_bytes(4096, DType::kInt4), 2048);
  EXPECT_EQ(storage_bytes(3, DType::kInt4), 2);  // the last byte half used
  EXPECT_EQ(storage_bytes(3, DType::kFp8E5M2), 3);
  EXPECT_EQ(storage_bytes(3, DType::kBf16), 6);
  EXPECT_THROW(dtype_bytes(DType::kInt4), Error);
}

TEST(DType, Fp8IsTheE4M3FormatAndTheNarrowTypesAreFlagged) {
  EXPECT_EQ(parse_dtype("fp8"), DType::kFp8E4M3);
  EXPECT_TRUE(is_float(DType::kFp8E5M2));
  EXPECT_FALSE(is_float(DType::kInt4));
  EXPECT_TRUE(is_narrow(DType::kInt4));
  EXPECT_TRUE(is_narrow(DType::kFp8E4M3));
  EXPECT_FALSE(is_narrow(DType::kInt8));
  EXPECT_EQ(dtype_spellings().back(), "fp8");
}

TEST(DType, EveryTypeHasADistinctName) {
  const std::vector<std::string>& names = all_dtype_names();
  EXPECT_EQ(names.size(), 13u);
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = i + 1; j < names.size(); ++j) EXPECT_NE(names[i], names[j]);
  }
  EXPECT_EQ(parse_dtype("int64"), DType::kInt64);
  EXPECT_EQ(parse_dtype("bool"), DType::kBool);
}

TEST(DType, ConfigSpellingsAreTheComputeTypesOnly) {
  EXPECT_EQ(dtype_names(), (std::vector<std::string>{"int8", "int16", "int32", "fp16", "bf16",
                                                     "fp32", "fp8_e4m3", "fp8_e5m2", "int4"}));
}

TEST(DType, UnknownNameIsRejected) {
  EXPECT_FALSE(parse_dtype("float8").has_value());
  EXPECT_FALSE(parse_dtype("fp4").has_value());
  EXPECT_FALSE(parse_dtype("INT8").has_value());
}

}  // namespace
}  // namespace polyarch::ir
