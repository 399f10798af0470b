#include "compiler/interp/npy_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "base/error.h"

namespace polyarch::interp {
namespace {

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("polyarch_npy_" + name);
}

TEST(NpyIo, Float32RoundTripKeepsShapeAndValues) {
  const DenseTensor tensor{{2, 3}, {1.5f, -2.0f, 0.0f, 3.25f, 1e-7f, 42.0f}};
  write_npy(scratch("round.npy"), tensor);
  const NpyArray back = read_npy(scratch("round.npy"));
  EXPECT_EQ(back.dtype, ir::DType::kFp32);
  EXPECT_EQ(back.tensor.shape, tensor.shape);
  EXPECT_EQ(back.tensor.values, tensor.values);
}

TEST(NpyIo, OneDimensionalAndScalarShapesRoundTrip) {
  write_npy(scratch("vec.npy"), DenseTensor{{3}, {1, 2, 3}});
  EXPECT_EQ(read_npy(scratch("vec.npy")).tensor.shape, Shape{3});
  write_npy(scratch("scalar.npy"), DenseTensor{{}, {7}});
  EXPECT_EQ(read_npy(scratch("scalar.npy")).tensor.values, std::vector<float>{7});
}

TEST(NpyIo, ReadsInt64TokenIds) {
  const NpyArray ids =
      read_npy(std::string(POLYARCH_SOURCE_DIR) + "/tests/data/onnx/bert_tiny_input.npy");
  EXPECT_EQ(ids.dtype, ir::DType::kInt64);
  EXPECT_EQ(ids.tensor.shape, (Shape{1, 32}));
}

std::string seed(const std::string& name) {
  return std::string(POLYARCH_SOURCE_DIR) + "/tests/data/npy/" + name;
}

TEST(NpyIo, ReadsEveryElementTypeAndFormatVersion) {
  struct Expected {
    std::string file;
    ir::DType dtype;
    Shape shape;
    std::vector<float> values;
  };
  const std::vector<Expected> cases = {
      {"float32_2x3.npy", ir::DType::kFp32, {2, 3}, {1.5f, -2, 0, 3.25f, 1e-7f, 42}},
      {"float64_vector.npy", ir::DType::kFp64, {4}, {1, 2, 3, 4}},
      {"int64_token_ids.npy", ir::DType::kInt64, {1, 8}, {101, 7592, 1010, 2088, 999, 0, -1, 5}},
      {"int32_scalar.npy", ir::DType::kInt32, {}, {7}},
      {"int8_matrix.npy", ir::DType::kInt8, {2, 2}, {-128, 127, 0, 1}},
      {"uint8_image.npy", ir::DType::kUint8, {1, 1, 2, 2}, {0, 255, 17, 3}},
      {"bool_mask.npy", ir::DType::kBool, {3}, {1, 0, 1}},
      // binary16 bits 0x3c00 0xc100 0x7bff 0x0001 0x7c00 0x2e66: 1, -2.5, the largest finite
      // 65504, the smallest subnormal 2^-24, +inf, and 0.1 as fp16 holds it (1638/16384).
      {"float16_values.npy",
       ir::DType::kFp16,
       {6},
       {1, -2.5f, 65504, 5.9604644775390625e-8f, std::numeric_limits<float>::infinity(),
        0.0999755859375f}},
      {"int16_vector.npy", ir::DType::kInt16, {4}, {-32768, 32767, 0, -3}},
      {"empty_dimension.npy", ir::DType::kFp32, {0, 5}, {}},
      {"version2_header.npy", ir::DType::kFp32, {2}, {1, 2}},
      {"version3_header.npy", ir::DType::kFp32, {1}, {1}},
  };
  for (const Expected& expected : cases) {
    SCOPED_TRACE(expected.file);
    const NpyArray array = read_npy(seed(expected.file));
    EXPECT_EQ(array.dtype, expected.dtype);
    EXPECT_EQ(array.tensor.shape, expected.shape);
    EXPECT_EQ(array.tensor.values, expected.values);
  }
}

void expect_bad_file(const std::string& name, const std::string& bytes, const std::string& why) {
  std::ofstream(scratch(name), std::ios::binary) << bytes;
  try {
    read_npy(scratch(name));
    FAIL() << "expected an error for " << name;
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_THAT(error.where().file, ::testing::HasSubstr(name));
    EXPECT_THAT(error.message(), ::testing::HasSubstr(why));
  }
}

TEST(NpyIo, BadFilesAreBadInputNamingTheFile) {
  expect_bad_file("magic.npy", "NOTNUMPYATALL", "magic");
  const std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  std::string prefix = std::string("\x93NUMPY\x01\x00", 8);
  prefix += static_cast<char>(header.size());
  prefix += '\0';
  expect_bad_file("short.npy", prefix + header + "abc", "data bytes");
  const std::string big = "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }";
  std::string big_prefix = std::string("\x93NUMPY\x01\x00", 8);
  big_prefix += static_cast<char>(big.size());
  big_prefix += '\0';
  expect_bad_file("endian.npy", big_prefix + big + "abcd", "element type");
}

// Every prefix of a good file is truncated somewhere: magic, version, header or data.
TEST(NpyIo, EveryTruncationIsBadInput) {
  const std::string bytes = npy_bytes(DenseTensor{{2, 2}, {1, 2, 3, 4}});
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    try {
      parse_npy(std::string_view(bytes).substr(0, length), "cut.npy");
      FAIL() << "a " << length << "-byte prefix parsed";
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      EXPECT_EQ(error.where().file, "cut.npy");
    }
  }
}

TEST(NpyIo, HeaderFieldsInAnyOrderAndShapesWithoutTrailingComma) {
  const std::string header = "{'shape': (2,3), 'fortran_order': False, 'descr': '<f4'}\n";
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size());
  bytes += '\0';
  bytes += header + std::string(24, '\0');
  EXPECT_EQ(parse_npy(bytes, "order.npy").tensor.shape, (Shape{2, 3}));
}

}  // namespace
}  // namespace polyarch::interp
