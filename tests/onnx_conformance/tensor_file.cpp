#include "tests/onnx_conformance/tensor_file.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace polyarch::onnx_conformance {

namespace {

using onnx::TensorProto;

// Typed fields keep narrow elements widened (int8 ... fp16 in int32_data, uint32 in
// uint64_data); the low bytes, little-endian, are the element.
template <typename Field>
std::string narrowed_bytes(const Field& field, int64_t width) {
  std::string bytes;
  for (const auto value : field) {
    char element[sizeof(value)];
    std::memcpy(element, &value, sizeof(value));
    bytes.append(element, static_cast<std::size_t>(width));
  }
  return bytes;
}

std::string typed_field_bytes(const TensorProto& proto, int64_t width) {
  switch (proto.data_type()) {
    case TensorProto::FLOAT:
    case TensorProto::COMPLEX64:
      return narrowed_bytes(proto.float_data(), 4);
    case TensorProto::DOUBLE:
    case TensorProto::COMPLEX128:
      return narrowed_bytes(proto.double_data(), 8);
    case TensorProto::INT64:
      return narrowed_bytes(proto.int64_data(), 8);
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      return narrowed_bytes(proto.uint64_data(), width);
    default:
      return narrowed_bytes(proto.int32_data(), width);
  }
}

template <typename T>
T load(const std::string& bytes, int64_t i) {
  T value;
  std::memcpy(&value, bytes.data() + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

// IEEE 754 binary16 to double, subnormals, infinities and NaN included.
double half_to_double(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const double mantissa = bits & 0x3ff;
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa == 0 ? sign * INFINITY : NAN;
  return sign * std::ldexp(1024.0 + mantissa, exponent - 25);
}

float bfloat16_to_float(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

std::string npy_descr(int32_t element_type, int64_t longest_string) {
  switch (element_type) {
    case TensorProto::FLOAT:
    case TensorProto::BFLOAT16:
      return "<f4";
    case TensorProto::DOUBLE:
      return "<f8";
    case TensorProto::FLOAT16:
      return "<f2";
    case TensorProto::UINT8:
      return "|u1";
    case TensorProto::INT8:
      return "|i1";
    case TensorProto::BOOL:
      return "|b1";
    case TensorProto::UINT16:
      return "<u2";
    case TensorProto::INT16:
      return "<i2";
    case TensorProto::UINT32:
      return "<u4";
    case TensorProto::INT32:
      return "<i4";
    case TensorProto::UINT64:
      return "<u8";
    case TensorProto::INT64:
      return "<i8";
    case TensorProto::COMPLEX64:
      return "<c8";
    case TensorProto::COMPLEX128:
      return "<c16";
    case TensorProto::STRING:
      return "<U" + std::to_string(std::max<int64_t>(longest_string, 1));
    default:
      throw std::runtime_error("element type " + std::to_string(element_type) +
                               " has no .npy form");
  }
}

// UTF-8 to code points (NumPy's '<U' arrays hold UTF-32); a malformed byte stands for itself.
std::vector<uint32_t> code_points(const std::string& text) {
  std::vector<uint32_t> points;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const int extra = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
    if (extra > 0 && i + static_cast<std::size_t>(extra) >= text.size()) {
      points.push_back(lead);
      ++i;
      continue;
    }
    uint32_t point = extra == 0 ? lead : lead & (0x3fu >> extra);
    for (int k = 1; k <= extra; ++k) {
      point = (point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3fu);
    }
    points.push_back(point);
    i += static_cast<std::size_t>(extra) + 1;
  }
  return points;
}

std::string element_bytes_for_npy(const StoredTensor& tensor, int64_t longest_string) {
  if (tensor.element_type == TensorProto::BFLOAT16) {
    std::string widened;
    for (int64_t i = 0; i < tensor.element_count(); ++i) {
      const float value = bfloat16_to_float(load<uint16_t>(tensor.bytes, i));
      widened.append(reinterpret_cast<const char*>(&value), sizeof(value));
    }
    return widened;
  }
  if (!tensor.is_string()) return tensor.bytes;
  std::string utf32;
  for (const std::string& text : tensor.strings) {
    std::vector<uint32_t> points = code_points(text);
    points.resize(static_cast<std::size_t>(std::max<int64_t>(longest_string, 1)), 0);
    utf32.append(reinterpret_cast<const char*>(points.data()), points.size() * 4);
  }
  return utf32;
}

}  // namespace

int64_t element_bytes(int32_t element_type) {
  switch (element_type) {
    case TensorProto::UINT8:
    case TensorProto::INT8:
    case TensorProto::BOOL:
      return 1;
    case TensorProto::UINT16:
    case TensorProto::INT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16:
      return 2;
    case TensorProto::FLOAT:
    case TensorProto::INT32:
    case TensorProto::UINT32:
      return 4;
    case TensorProto::INT64:
    case TensorProto::UINT64:
    case TensorProto::DOUBLE:
    case TensorProto::COMPLEX64:
      return 8;
    case TensorProto::COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

int64_t StoredTensor::element_count() const {
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  return count;
}

bool StoredTensor::is_real() const {
  switch (element_type) {
    case TensorProto::FLOAT:
    case TensorProto::DOUBLE:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16:
      return true;
    default:
      return false;
  }
}

bool StoredTensor::is_string() const { return element_type == TensorProto::STRING; }

bool StoredTensor::is_complex() const {
  return element_type == TensorProto::COMPLEX64 || element_type == TensorProto::COMPLEX128;
}

double StoredTensor::real(int64_t i) const {
  switch (element_type) {
    case TensorProto::FLOAT:
      return load<float>(bytes, i);
    case TensorProto::DOUBLE:
      return load<double>(bytes, i);
    case TensorProto::FLOAT16:
      return half_to_double(load<uint16_t>(bytes, i));
    case TensorProto::BFLOAT16:
      return bfloat16_to_float(load<uint16_t>(bytes, i));
    default:
      return static_cast<double>(integer(i));
  }
}

int64_t StoredTensor::integer(int64_t i) const {
  switch (element_type) {
    case TensorProto::UINT8:
      return load<uint8_t>(bytes, i);
    case TensorProto::INT8:
      return load<int8_t>(bytes, i);
    case TensorProto::BOOL:
      return load<uint8_t>(bytes, i) != 0 ? 1 : 0;
    case TensorProto::UINT16:
      return load<uint16_t>(bytes, i);
    case TensorProto::INT16:
      return load<int16_t>(bytes, i);
    case TensorProto::UINT32:
      return load<uint32_t>(bytes, i);
    case TensorProto::INT32:
      return load<int32_t>(bytes, i);
    case TensorProto::UINT64:
      return static_cast<int64_t>(load<uint64_t>(bytes, i));
    case TensorProto::INT64:
      return load<int64_t>(bytes, i);
    default:
      throw std::runtime_error("element type " + std::to_string(element_type) +
                               " is not an integer type");
  }
}

StoredTensor read_tensor_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string serialized((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
  TensorProto proto;
  if (!in.good() && !in.eof()) throw std::runtime_error("cannot read " + path.string());
  if (!proto.ParseFromString(serialized) || proto.data_type() == TensorProto::UNDEFINED) {
    throw std::runtime_error(path.string() + " is not a TensorProto");
  }
  StoredTensor tensor;
  tensor.name = proto.name();
  tensor.element_type = proto.data_type();
  tensor.dims.assign(proto.dims().begin(), proto.dims().end());
  if (tensor.is_string()) {
    tensor.strings.assign(proto.string_data().begin(), proto.string_data().end());
    return tensor;
  }
  const int64_t width = element_bytes(tensor.element_type);
  if (width == 0) {
    throw std::runtime_error(path.string() + ": element type " +
                             std::to_string(tensor.element_type) + " is not numeric");
  }
  tensor.bytes = proto.has_raw_data() ? proto.raw_data() : typed_field_bytes(proto, width);
  if (static_cast<int64_t>(tensor.bytes.size()) != tensor.element_count() * width) {
    throw std::runtime_error(path.string() + ": the element count disagrees with the dims");
  }
  return tensor;
}

std::string npy_bytes(const StoredTensor& tensor) {
  int64_t longest_string = 0;
  for (const std::string& text : tensor.strings) {
    longest_string = std::max(longest_string, static_cast<int64_t>(code_points(text).size()));
  }
  std::string shape = "(";
  for (int64_t dim : tensor.dims) shape += std::to_string(dim) + ", ";
  if (tensor.dims.size() > 1) shape.resize(shape.size() - 2);  // (3,) keeps its comma
  if (tensor.dims.size() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + npy_descr(tensor.element_type, longest_string) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // The magic, version and length take 10 bytes; the header pads to a multiple of 64 and
  // ends in a newline (numpy.lib.format).
  const std::size_t padded = (10 + header.size() + 1 + 63) / 64 * 64 - 10;
  header.append(padded - header.size() - 1, ' ');
  header += '\n';
  std::string file = "\x93NUMPY";
  file += '\x01';
  file += '\x00';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  return file + header + element_bytes_for_npy(tensor, longest_string);
}

}  // namespace polyarch::onnx_conformance
