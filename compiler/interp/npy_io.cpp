#include "compiler/interp/npy_io.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>

#include "base/error.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
// Magic, major and minor version; then a 2-byte (version 1) or 4-byte header length.
constexpr std::size_t kPreludeBytes = kMagic.size() + 2;

[[noreturn]] void fail(const std::string& source, const std::string& message) {
  throw_bad_input({source, 0, 0, ""}, "not a readable .npy file: " + message);
}

// The element types a descr may name; '|' marks byte-sized types without an order.
const std::map<std::string, ir::DType, std::less<>>& descr_types() {
  static const std::map<std::string, ir::DType, std::less<>> types = {
      {"<f4", ir::DType::kFp32},  {"<f8", ir::DType::kFp64},  {"<i8", ir::DType::kInt64},
      {"<i4", ir::DType::kInt32}, {"|u1", ir::DType::kUint8}, {"|b1", ir::DType::kBool},
      {"|i1", ir::DType::kInt8},  {"<f2", ir::DType::kFp16},  {"<i2", ir::DType::kInt16},
  };
  return types;
}

template <typename T>
void convert(const char* bytes, std::vector<float>& values) {
  for (float& value : values) {
    T element;
    std::memcpy(&element, bytes, sizeof(T));
    bytes += sizeof(T);
    value = static_cast<float>(element);
  }
}

// An IEEE binary16 value: 1 sign bit, 5 exponent bits (bias 15), 10 fraction bits; exact in
// fp32.
float half_value(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int fraction = bits & 0x3ff;
  float magnitude = 0.0f;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(fraction), -24);  // subnormal
  } else if (exponent == 0x1f) {
    magnitude = fraction == 0 ? std::numeric_limits<float>::infinity()
                              : std::numeric_limits<float>::quiet_NaN();
  } else {
    magnitude = std::ldexp(static_cast<float>(fraction | 0x400), exponent - 25);
  }
  return (bits & 0x8000) != 0 ? -magnitude : magnitude;
}

void decode(ir::DType dtype, const char* bytes, std::vector<float>& values) {
  switch (dtype) {
    case ir::DType::kFp16:
      for (float& value : values) {
        uint16_t bits = 0;
        std::memcpy(&bits, bytes, sizeof(bits));
        bytes += sizeof(bits);
        value = half_value(bits);
      }
      return;
    case ir::DType::kInt16:
      return convert<int16_t>(bytes, values);
    case ir::DType::kFp32:
      return convert<float>(bytes, values);
    case ir::DType::kFp64:
      return convert<double>(bytes, values);
    case ir::DType::kInt64:
      return convert<int64_t>(bytes, values);
    case ir::DType::kInt32:
      return convert<int32_t>(bytes, values);
    case ir::DType::kInt8:
      return convert<int8_t>(bytes, values);
    default:
      return convert<uint8_t>(bytes, values);  // uint8 and bool
  }
}

// The header is a Python dict literal, e.g. {'descr': '<f4', 'fortran_order': False,
// 'shape': (1, 3), }. A small scanner rather than std::regex: the fuzzer feeds megabyte
// headers, on which libstdc++'s recursive regex matcher overflows the stack.
class HeaderScanner {
 public:
  HeaderScanner(std::string_view header, const std::string& source)
      : header_(header), source_(source) {}

  // The text after `'key':` with leading blanks skipped; nullopt when the key is absent.
  std::optional<std::string_view> after_key(std::string_view key) const {
    for (char quote : {'\'', '"'}) {
      std::string quoted(1, quote);
      quoted.append(key).push_back(quote);
      std::size_t at = header_.find(quoted);
      if (at == std::string_view::npos) continue;
      at = skip_blanks(at + quoted.size());
      if (at >= header_.size() || header_[at] != ':') continue;
      return header_.substr(skip_blanks(at + 1));
    }
    return std::nullopt;
  }

  std::string_view required(std::string_view key) const {
    const std::optional<std::string_view> value = after_key(key);
    if (!value) fail(source_, "header has no '" + std::string(key) + "'");
    return *value;
  }

  std::string quoted_text(std::string_view key) const {
    const std::string_view value = required(key);
    const std::size_t end = value.empty() ? std::string_view::npos : value.find(value[0], 1);
    if ((value.empty() || (value[0] != '\'' && value[0] != '"')) || end == std::string_view::npos) {
      fail(source_, "header's '" + std::string(key) + "' is not a quoted string");
    }
    return std::string(value.substr(1, end - 1));
  }

  bool boolean(std::string_view key) const {
    const std::string_view value = required(key);
    if (value.starts_with("True")) return true;
    if (value.starts_with("False")) return false;
    fail(source_, "header's '" + std::string(key) + "' is neither True nor False");
  }

  // "(2, 3)", "(4,)" or "()": non-negative sizes separated by commas.
  Shape shape() const {
    const std::string_view value = required("shape");
    const std::size_t end = value.find(')');
    if (!value.starts_with("(") || end == std::string_view::npos) {
      fail(source_, "header's 'shape' is not a tuple");
    }
    Shape shape;
    int64_t dimension = 0;
    bool in_dimension = false;  // digits seen since the last comma
    for (char c : value.substr(1, end - 1)) {
      if (c >= '0' && c <= '9') {
        if (__builtin_mul_overflow(dimension, 10, &dimension) ||
            __builtin_add_overflow(dimension, c - '0', &dimension)) {
          fail(source_, "a shape dimension does not fit in 64 bits");
        }
        in_dimension = true;
      } else if (c == ',' && in_dimension) {
        shape.push_back(dimension);
        dimension = 0;
        in_dimension = false;
      } else if (c != ' ') {
        fail(source_, "header's 'shape' " + std::string(value.substr(0, end + 1)) +
                          " is not a tuple of sizes");
      }
    }
    if (in_dimension) shape.push_back(dimension);
    return shape;
  }

 private:
  std::size_t skip_blanks(std::size_t at) const {
    while (at < header_.size() && header_[at] == ' ') ++at;
    return at;
  }

  std::string_view header_;
  const std::string& source_;
};

}  // namespace

NpyArray parse_npy(std::string_view bytes, const std::string& source) {
  if (bytes.size() < kPreludeBytes || !bytes.starts_with(kMagic)) {
    fail(source, "no NumPy magic string (\\x93NUMPY)");
  }
  const int major = static_cast<unsigned char>(bytes[kMagic.size()]);
  if (major < 1 || major > 3) fail(source, "format version " + std::to_string(major) + " unknown");
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < kPreludeBytes + length_bytes) fail(source, "truncated before its header");
  std::size_t header_length = 0;
  for (std::size_t i = 0; i < length_bytes; ++i) {
    header_length |= std::size_t{static_cast<unsigned char>(bytes[kPreludeBytes + i])} << (8 * i);
  }
  const std::size_t header_start = kPreludeBytes + length_bytes;
  if (header_length > bytes.size() - header_start) {
    fail(source, "header runs past the end of the file (truncated?)");
  }
  const HeaderScanner header(bytes.substr(header_start, header_length), source);
  const std::string descr = header.quoted_text("descr");
  if (header.boolean("fortran_order")) {
    fail(source, "Fortran-order arrays are not supported (save with np.ascontiguousarray)");
  }
  const auto type = descr_types().find(descr);
  if (type == descr_types().end()) {
    fail(source, "element type '" + descr +
                     "' is not one of <f4 <f8 <f2 <i8 <i4 <i2 |i1 |u1 |b1 (little-endian)");
  }
  NpyArray array;
  array.dtype = type->second;
  array.tensor.shape = header.shape();
  int64_t count = 1;
  int64_t data_bytes = 0;
  for (int64_t dimension : array.tensor.shape) {
    if (__builtin_mul_overflow(count, dimension, &count)) fail(source, "shape is too large");
  }
  if (__builtin_mul_overflow(count, ir::dtype_bytes(array.dtype), &data_bytes)) {
    fail(source, "shape is too large");
  }
  const std::size_t data_start = header_start + header_length;
  if (bytes.size() - data_start != static_cast<uint64_t>(data_bytes)) {
    fail(source, "holds " + std::to_string(bytes.size() - data_start) +
                     " data bytes, but its header's shape and type need " +
                     std::to_string(data_bytes));
  }
  array.tensor.values.resize(static_cast<std::size_t>(count));
  decode(array.dtype, bytes.data() + data_start, array.tensor.values);
  return array;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw_bad_input({path.string(), 0, 0, ""}, "cannot open .npy file");
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return parse_npy(bytes, path.string());
}

std::string npy_bytes(const DenseTensor& tensor) {
  std::string shape;  // "1, 10"; a 1-tuple keeps its comma: "10,"
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) {
    shape += (i > 0 ? ", " : "") + std::to_string(tensor.shape[i]);
  }
  if (tensor.shape.size() == 1) shape += ',';
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + shape + "), }";
  // The data starts on a 64-byte boundary; the header ends with a newline (numpy.lib.format).
  const std::size_t unpadded = kPreludeBytes + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string bytes(kMagic);
  bytes += {'\x01', '\x00', static_cast<char>(header.size() & 0xff),
            static_cast<char>(header.size() >> 8)};
  bytes += header;
  bytes.append(reinterpret_cast<const char*>(tensor.values.data()),
               tensor.values.size() * sizeof(float));
  return bytes;
}

void write_npy(const std::filesystem::path& path, const DenseTensor& tensor) {
  const std::string bytes = npy_bytes(tensor);
  std::ofstream file(path, std::ios::binary);
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!file) throw_runtime({path.string(), 0, 0, ""}, "cannot write .npy file");
}

}  // namespace polyarch::interp
