#include "compiler/ir/dtype.h"

#include <gtest/gtest.h>

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
}

TEST(DType, EveryTypeHasADistinctName) {
  const std::vector<std::string>& names = all_dtype_names();
  EXPECT_EQ(names.size(), 10u);
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t j = i + 1; j < names.size(); ++j) EXPECT_NE(names[i], names[j]);
  }
  EXPECT_EQ(parse_dtype("int64"), DType::kInt64);
  EXPECT_EQ(parse_dtype("bool"), DType::kBool);
}

TEST(DType, ConfigSpellingsAreTheComputeTypesOnly) {
  EXPECT_EQ(dtype_names(),
            (std::vector<std::string>{"int8", "int16", "int32", "fp16", "bf16", "fp32"}));
}

TEST(DType, UnknownNameIsRejected) {
  EXPECT_FALSE(parse_dtype("float8").has_value());
  EXPECT_FALSE(parse_dtype("INT8").has_value());
}

}  // namespace
}  // namespace polyarch::ir
