#include "compiler/frontend/onnx/tensor_proto.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <vector>

#include "base/path_exists.h"
#include "compiler/frontend/onnx/element_type.h"
#include "compiler/ir/shape_text.h"

namespace polyarch::frontend::onnx_import {

// ONNX stores raw_data and external data little-endian; the IR keeps the same bytes, so the
// typed fields below are copied out in host order, which must be little-endian too.
static_assert(std::endian::native == std::endian::little, "polyarch assumes a little-endian host");

namespace {

using Bytes = std::vector<std::byte>;

// Appends `value` narrowed to `width` bytes (ONNX keeps int8/int16/bool/fp16/bf16 elements
// widened to int32 in int32_data; the low bytes are the element).
template <typename T>
void append_narrowed(Bytes& bytes, T value, int64_t width) {
  const std::size_t offset = bytes.size();
  bytes.resize(offset + static_cast<std::size_t>(width));
  std::memcpy(bytes.data() + offset, &value, static_cast<std::size_t>(width));
}

template <typename Field>
Bytes bytes_of_field(const Field& field, int64_t width) {
  Bytes bytes;
  bytes.reserve(static_cast<std::size_t>(field.size() * width));
  for (const auto value : field) append_narrowed(bytes, value, width);
  return bytes;
}

// Contents held in the proto itself: raw_data, or the typed repeated field for its type.
Bytes inline_contents(const onnx::TensorProto& proto, int64_t width) {
  if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    const auto* begin = reinterpret_cast<const std::byte*>(raw.data());
    return Bytes(begin, begin + raw.size());
  }
  switch (proto.data_type()) {
    case onnx::TensorProto::FLOAT:
      return bytes_of_field(proto.float_data(), width);
    case onnx::TensorProto::INT64:
      return bytes_of_field(proto.int64_data(), width);
    case onnx::TensorProto::DOUBLE:
      return bytes_of_field(proto.double_data(), width);
    default:
      return bytes_of_field(proto.int32_data(), width);
  }
}

struct ExternalData {
  std::string location;
  int64_t offset = 0;
  int64_t length = -1;  // -1: to the tensor's size
};

ExternalData external_data_of(const onnx::TensorProto& proto, const SourceLocation& where) {
  ExternalData external;
  for (const onnx::StringStringEntryProto& entry : proto.external_data()) {
    try {
      if (entry.key() == "location") external.location = entry.value();
      if (entry.key() == "offset") external.offset = std::stoll(entry.value());
      if (entry.key() == "length") external.length = std::stoll(entry.value());
    } catch (const std::exception&) {
      throw_bad_input(where,
                      "external data " + entry.key() + " '" + entry.value() + "' is not a number");
    }
  }
  if (external.location.empty()) throw_bad_input(where, "external data without a location");
  if (external.offset < 0) throw_bad_input(where, "external data offset is negative");
  return external;
}

Bytes read_external(const std::filesystem::path& file, const ExternalData& external,
                    int64_t expected_bytes, const SourceLocation& where) {
  const int64_t length = external.length >= 0 ? external.length : expected_bytes;
  std::ifstream in(file, std::ios::binary);
  if (!in) throw_bad_input(where, "cannot open external data file '" + file.string() + "'");
  // Checked before allocating `length` bytes: a corrupt length must not become a huge buffer.
  std::error_code error;
  const auto file_bytes = static_cast<int64_t>(std::filesystem::file_size(file, error));
  if (error || external.offset > file_bytes || length > file_bytes - external.offset) {
    throw_bad_input(where, "external data file '" + file.string() + "' ends before offset " +
                               std::to_string(external.offset) + " + " + std::to_string(length) +
                               " bytes");
  }
  in.seekg(external.offset);
  Bytes bytes(static_cast<std::size_t>(length));
  in.read(reinterpret_cast<char*>(bytes.data()), length);
  if (in.gcount() != length) {
    throw_bad_input(where, "external data file '" + file.string() + "' ends before offset " +
                               std::to_string(external.offset) + " + " + std::to_string(length) +
                               " bytes");
  }
  return bytes;
}

}  // namespace

ImportedTensor tensor_from_proto(const onnx::TensorProto& proto, ir::TensorRole role,
                                 const std::filesystem::path& model_dir,
                                 const SourceLocation& where) {
  const std::optional<ir::DType> dtype = dtype_of_element_type(proto.data_type());
  if (!dtype) {
    throw_bad_input(where, "tensor '" + proto.name() + "' has element type " +
                               element_type_name(proto.data_type()) +
                               ", which polyarch does not support");
  }
  ImportedTensor imported;
  ir::Tensor& tensor = imported.tensor;
  tensor.name = proto.name();
  tensor.dtype = *dtype;
  tensor.role = role;
  tensor.shape.assign(proto.dims().begin(), proto.dims().end());
  tensor.scalar = tensor.shape.empty();
  for (int64_t dim : tensor.shape) {
    if (dim < 0) {
      throw_bad_input(where, "tensor '" + tensor.name + "' has a negative dimension in " +
                                 ir::shape_text(tensor.shape));
    }
  }
  // int4 is packed two to a byte, the first element in the low nibble, in raw_data and in each
  // int32_data entry alike (onnx.proto); every other type has whole bytes.
  const int64_t width = *dtype == ir::DType::kInt4 ? 1 : ir::dtype_bytes(*dtype);
  int64_t expected_bytes = 0;
  try {
    expected_bytes = ir::storage_bytes(ir::element_count(tensor.shape), *dtype);
  } catch (const Error& overflow) {
    throw_bad_input(where, "tensor '" + tensor.name + "' " + ir::shape_text(tensor.shape) + ": " +
                               overflow.message());
  }
  Bytes contents;
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    const ExternalData external = external_data_of(proto, where);
    const std::filesystem::path file = model_dir / external.location;
    if (!path_exists(file)) {
      // Structure-only exports drop the weights file on purpose: keep dims and dtype.
      tensor.external_data_missing = true;
      imported.missing_external_file = file.string();
      return imported;
    }
    contents = read_external(file, external, expected_bytes, where);
  } else {
    contents = inline_contents(proto, width);
  }
  if (static_cast<int64_t>(contents.size()) != expected_bytes) {
    throw_bad_input(where, "tensor '" + tensor.name + "' holds " + std::to_string(contents.size()) +
                               " bytes, but its shape " + ir::shape_text(tensor.shape) + " of " +
                               std::string(ir::dtype_name(*dtype)) + " needs " +
                               std::to_string(expected_bytes));
  }
  tensor.data = std::make_shared<const Bytes>(std::move(contents));
  return imported;
}

}  // namespace polyarch::frontend::onnx_import
