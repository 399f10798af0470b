#include "compiler/ir/dtype.h"

#include <array>

namespace polyarch::ir {

namespace {
struct DTypeInfo {
  DType dtype;
  std::string_view name;
  int64_t bytes;
};

// Order matches the enum so lookups by value are an index.
constexpr std::array<DTypeInfo, 10> kDTypes = {{
    {DType::kInt8, "int8", 1},
    {DType::kInt16, "int16", 2},
    {DType::kInt32, "int32", 4},
    {DType::kFp16, "fp16", 2},
    {DType::kBf16, "bf16", 2},
    {DType::kFp32, "fp32", 4},
    {DType::kInt64, "int64", 8},
    {DType::kUint8, "uint8", 1},
    {DType::kBool, "bool", 1},  // ONNX stores one byte per bool element
    {DType::kFp64, "fp64", 8},
}};

const DTypeInfo& info(DType dtype) { return kDTypes[static_cast<std::size_t>(dtype)]; }
}  // namespace

int64_t dtype_bytes(DType dtype) { return info(dtype).bytes; }

std::string_view dtype_name(DType dtype) { return info(dtype).name; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (const DTypeInfo& entry : kDTypes) {
    if (entry.name == name) return entry.dtype;
  }
  return std::nullopt;
}

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> compute;
    for (const DTypeInfo& entry : kDTypes) {
      if (entry.dtype <= DType::kFp32) compute.emplace_back(entry.name);
    }
    return compute;
  }();
  return names;
}

const std::vector<std::string>& all_dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const DTypeInfo& entry : kDTypes) all.emplace_back(entry.name);
    return all;
  }();
  return names;
}

}  // namespace polyarch::ir
