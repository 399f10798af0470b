#include "compiler/passes/tensor_values.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "base/error.h"

namespace polyarch::passes {

namespace {

template <typename T>
T load(const std::byte* bytes, std::size_t index) {
  T value;
  std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
void append(std::vector<std::byte>& bytes, T value) {
  const std::size_t offset = bytes.size();
  bytes.resize(offset + sizeof(T));
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

}  // namespace

bool is_float_dtype(ir::DType dtype) { return ir::is_float(dtype); }

int64_t Values::size() const {
  return static_cast<int64_t>(is_float() ? reals.size() : ints.size());
}

int64_t Values::integer(std::size_t i) const {
  if (!is_float()) return ints[i];
  const double value = reals[i];
  if (std::isnan(value)) return 0;
  // 2^63 is exact in a double; every double below it converts.
  constexpr double kLimit = 9223372036854775808.0;
  if (value >= kLimit) return std::numeric_limits<int64_t>::max();
  if (value < -kLimit) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

void Values::push_from(const Values& source, std::size_t i) {
  if (is_float()) {
    reals.push_back(source.real(i));
  } else if (dtype == ir::DType::kBool) {
    ints.push_back(source.real(i) != 0.0 ? 1 : 0);
  } else {
    ints.push_back(source.integer(i));
  }
}

Values empty_values(ir::DType dtype, std::vector<int64_t> shape) {
  Values values;
  values.dtype = dtype;
  values.shape = std::move(shape);
  return values;
}

std::optional<Values> read_values(const ir::Tensor& tensor) {
  // Constant folding works on the types models store constants in; fp16, bf16 and the narrow
  // formats are left to the interpreter.
  if (!tensor.has_data() || tensor.dtype == ir::DType::kFp16 || tensor.dtype == ir::DType::kBf16 ||
      ir::is_narrow(tensor.dtype)) {
    return std::nullopt;
  }
  Values values = empty_values(tensor.dtype, tensor.shape);
  const int64_t count = ir::element_count(tensor.shape);
  if (static_cast<int64_t>(tensor.data->size()) != count * ir::dtype_bytes(tensor.dtype)) {
    return std::nullopt;  // the importer checks sizes; a mismatch here is not ours to fold
  }
  const std::byte* bytes = tensor.data->data();
  for (int64_t i = 0; i < count; ++i) {
    const auto index = static_cast<std::size_t>(i);
    switch (tensor.dtype) {
      case ir::DType::kFp32:
        values.reals.push_back(load<float>(bytes, index));
        break;
      case ir::DType::kFp64:
        values.reals.push_back(load<double>(bytes, index));
        break;
      case ir::DType::kInt8:
        values.ints.push_back(load<int8_t>(bytes, index));
        break;
      case ir::DType::kUint8:
      case ir::DType::kBool:
        values.ints.push_back(load<uint8_t>(bytes, index));
        break;
      case ir::DType::kInt16:
        values.ints.push_back(load<int16_t>(bytes, index));
        break;
      case ir::DType::kInt32:
        values.ints.push_back(load<int32_t>(bytes, index));
        break;
      case ir::DType::kInt64:
        values.ints.push_back(load<int64_t>(bytes, index));
        break;
      case ir::DType::kFp16:
      case ir::DType::kBf16:
      case ir::DType::kFp8E4M3:
      case ir::DType::kFp8E5M2:
      case ir::DType::kInt4:
        return std::nullopt;
    }
  }
  return values;
}

void store_values(const Values& values, ir::Tensor& tensor) {
  std::vector<std::byte> bytes;
  const std::size_t count = static_cast<std::size_t>(values.size());
  bytes.reserve(static_cast<std::size_t>(ir::storage_bytes(values.size(), values.dtype)));
  for (std::size_t i = 0; i < count; ++i) {
    switch (values.dtype) {
      case ir::DType::kFp32:
        append(bytes, static_cast<float>(values.reals[i]));
        break;
      case ir::DType::kFp64:
        append(bytes, values.reals[i]);
        break;
      case ir::DType::kInt8:
        append(bytes, static_cast<int8_t>(values.ints[i]));
        break;
      case ir::DType::kUint8:
      case ir::DType::kBool:
        append(bytes, static_cast<uint8_t>(values.ints[i]));
        break;
      case ir::DType::kInt16:
        append(bytes, static_cast<int16_t>(values.ints[i]));
        break;
      case ir::DType::kInt32:
        append(bytes, static_cast<int32_t>(values.ints[i]));
        break;
      case ir::DType::kInt64:
        append(bytes, values.ints[i]);
        break;
      case ir::DType::kFp16:
      case ir::DType::kBf16:
      case ir::DType::kFp8E4M3:
      case ir::DType::kFp8E5M2:
      case ir::DType::kInt4:
        throw_runtime({}, "constant folding does not produce " +
                              std::string(ir::dtype_name(values.dtype)) + " values");
    }
  }
  tensor.shape = values.shape;
  tensor.scalar = values.shape.empty();
  tensor.dtype = values.dtype;
  tensor.dtype_known = true;
  tensor.external_data_missing = false;
  tensor.data = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
}

}  // namespace polyarch::passes
