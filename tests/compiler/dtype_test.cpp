#include "compiler/ir/dtype.h"

#include <gtest/gtest.h>

namespace polyarch::ir {
namespace {

TEST(DType, NamesRoundTripThroughParse) {
  for (const std::string& name : dtype_names()) {
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
}

TEST(DType, UnknownNameIsRejected) {
  EXPECT_FALSE(parse_dtype("float8").has_value());
  EXPECT_FALSE(parse_dtype("INT8").has_value());
}

}  // namespace
}  // namespace polyarch::ir
