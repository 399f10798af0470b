#include "tests/onnx_conformance/tensor_file.h"

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "compiler/interp/npy_io.h"
#include "tests/support/scratch_dir_test.h"

namespace polyarch::onnx_conformance {
namespace {

using onnx::TensorProto;

class TensorFileTest : public test_support::ScratchDirTest {
 protected:
  StoredTensor stored(const TensorProto& proto) const {
    std::ofstream(path("t.pb"), std::ios::binary) << proto.SerializeAsString();
    return read_tensor_file(path("t.pb"));
  }
};

TEST_F(TensorFileTest, FloatDataBecomesAFloat32NpyOfTheSameShape) {
  TensorProto proto;
  proto.set_data_type(TensorProto::FLOAT);
  proto.add_dims(2);
  proto.add_dims(3);
  for (float value : {0.5f, -1.0f, 2.25f, 3.0f, -4.5f, 1e-3f}) proto.add_float_data(value);
  const std::string npy = npy_bytes(stored(proto));
  // magic (6) + version (2) + header length (2) + header: numpy aligns the data to 64 bytes.
  EXPECT_EQ((npy.size() - 6 * 4) % 64, 0u);
  const interp::NpyArray array = interp::parse_npy(npy, "t.npy");
  EXPECT_EQ(array.dtype, ir::DType::kFp32);
  EXPECT_EQ(array.tensor.shape, (interp::Shape{2, 3}));
  EXPECT_EQ(array.tensor.values, (std::vector<float>{0.5f, -1.0f, 2.25f, 3.0f, -4.5f, 1e-3f}));
}

TEST_F(TensorFileTest, Int8ElementsWidenedInInt32DataKeepTheirSign) {
  TensorProto proto;
  proto.set_data_type(TensorProto::INT8);
  proto.add_dims(3);
  for (int32_t value : {-128, -3, 127}) proto.add_int32_data(value);
  const StoredTensor tensor = stored(proto);
  EXPECT_EQ(tensor.integer(0), -128);
  EXPECT_EQ(tensor.integer(1), -3);
  const interp::NpyArray array = interp::parse_npy(npy_bytes(tensor), "t.npy");
  EXPECT_EQ(array.dtype, ir::DType::kInt8);
  EXPECT_EQ(array.tensor.values, (std::vector<float>{-128, -3, 127}));
}

TEST_F(TensorFileTest, RawInt64DataOfAScalarIsReadExactly) {
  TensorProto proto;
  proto.set_data_type(TensorProto::INT64);
  const int64_t value = (int64_t{1} << 40) + 1;  // not exact in a float
  proto.set_raw_data(std::string(reinterpret_cast<const char*>(&value), sizeof(value)));
  const StoredTensor tensor = stored(proto);
  EXPECT_TRUE(tensor.dims.empty());
  EXPECT_EQ(tensor.integer(0), value);
  EXPECT_NE(npy_bytes(tensor).find("'shape': ()"), std::string::npos);
}

TEST_F(TensorFileTest, HalfAndBfloat16BitsAreTheValuesTheyEncode) {
  TensorProto half;
  half.set_data_type(TensorProto::FLOAT16);
  half.add_dims(4);
  for (int32_t bits : {0x3c00, 0xc000, 0x0001, 0x7c00}) half.add_int32_data(bits);
  const StoredTensor halves = stored(half);
  EXPECT_EQ(halves.real(0), 1.0);
  EXPECT_EQ(halves.real(1), -2.0);
  EXPECT_EQ(halves.real(2), std::ldexp(1.0, -24));  // the smallest subnormal
  EXPECT_TRUE(std::isinf(halves.real(3)));
  TensorProto bf16;
  bf16.set_data_type(TensorProto::BFLOAT16);
  bf16.add_dims(1);
  bf16.add_int32_data(0x3ef5);  // 0.478515625: sign 0, exponent 125, mantissa 0x75
  const StoredTensor widened = stored(bf16);
  EXPECT_EQ(widened.real(0), 0.478515625);
  // NumPy has no bfloat16: the file holds the float32 it stands for.
  const interp::NpyArray array = interp::parse_npy(npy_bytes(widened), "t.npy");
  EXPECT_EQ(array.dtype, ir::DType::kFp32);
  EXPECT_EQ(array.tensor.values, (std::vector<float>{0.478515625f}));
}

TEST_F(TensorFileTest, StringsBecomeFixedWidthUtf32) {
  TensorProto proto;
  proto.set_data_type(TensorProto::STRING);
  proto.add_dims(2);
  proto.add_string_data("ab");
  proto.add_string_data("\xc3\xa9");  // é, one code point
  const std::string npy = npy_bytes(stored(proto));
  EXPECT_NE(npy.find("'descr': '<U2'"), std::string::npos);
  const std::string data = npy.substr(npy.size() - 16);
  EXPECT_EQ(data, std::string("a\0\0\0b\0\0\0\xe9\0\0\0\0\0\0\0", 16));
}

TEST_F(TensorFileTest, ElementsDisagreeingWithTheDimsAreAnError) {
  TensorProto proto;
  proto.set_data_type(TensorProto::FLOAT);
  proto.add_dims(3);
  proto.add_float_data(1.0f);
  EXPECT_THROW(stored(proto), std::runtime_error);
}

}  // namespace
}  // namespace polyarch::onnx_conformance
