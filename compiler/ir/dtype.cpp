#include "compiler/ir/dtype.h"

#include <array>

#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::ir {

namespace {
struct DTypeInfo {
  DType dtype;
  std::string_view name;
  int64_t bits;
  bool compute;  // a config or layer list may name it
  bool floating;
};

// Order matches the enum so lookups by value are an index.
constexpr std::array<DTypeInfo, 13> kDTypes = {{
    {DType::kInt8, "int8", 8, true, false},
    {DType::kInt16, "int16", 16, true, false},
    {DType::kInt32, "int32", 32, true, false},
    {DType::kFp16, "fp16", 16, true, true},
    {DType::kBf16, "bf16", 16, true, true},
    {DType::kFp32, "fp32", 32, true, true},
    {DType::kInt64, "int64", 64, false, false},
    {DType::kUint8, "uint8", 8, false, false},
    {DType::kBool, "bool", 8, false, false},  // ONNX stores one byte per bool element
    {DType::kFp64, "fp64", 64, false, true},
    {DType::kFp8E4M3, "fp8_e4m3", 8, true, true},
    {DType::kFp8E5M2, "fp8_e5m2", 8, true, true},
    {DType::kInt4, "int4", 4, true, false},
}};

const DTypeInfo& info(DType dtype) { return kDTypes[static_cast<std::size_t>(dtype)]; }
}  // namespace

int64_t dtype_bits(DType dtype) { return info(dtype).bits; }

int64_t dtype_bytes(DType dtype) {
  const int64_t bits = info(dtype).bits;
  if (bits % 8 != 0) {
    // A caller that multiplies a count by this would count int4 at a byte per element.
    throw_runtime({}, std::string(info(dtype).name) +
                          " packs two elements per byte and has no whole byte size: count its "
                          "bytes with storage_bytes");
  }
  return bits / 8;
}

int64_t storage_bytes(int64_t elements, DType dtype) {
  const int64_t bits = checked_mul(elements, info(dtype).bits, "storage bits");
  return bits / 8 + (bits % 8 != 0 ? 1 : 0);
}

bool is_float(DType dtype) { return info(dtype).floating; }

bool is_narrow(DType dtype) {
  return dtype == DType::kFp8E4M3 || dtype == DType::kFp8E5M2 || dtype == DType::kInt4;
}

std::string_view dtype_name(DType dtype) { return info(dtype).name; }

std::optional<DType> parse_dtype(std::string_view name) {
  if (name == "fp8") return DType::kFp8E4M3;  // the format inference deploys (OCP E4M3)
  for (const DTypeInfo& entry : kDTypes) {
    if (entry.name == name) return entry.dtype;
  }
  return std::nullopt;
}

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> compute;
    for (const DTypeInfo& entry : kDTypes) {
      if (entry.compute) compute.emplace_back(entry.name);
    }
    return compute;
  }();
  return names;
}

const std::vector<std::string>& dtype_spellings() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> spellings = dtype_names();
    spellings.emplace_back("fp8");
    return spellings;
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
