#pragma once
// Element types of tensors and arithmetic.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyarch::ir {

enum class DType { kInt8, kInt16, kInt32, kFp16, kBf16, kFp32 };

int64_t dtype_bytes(DType dtype);
std::string_view dtype_name(DType dtype);  // "int8", "fp16", ...
std::optional<DType> parse_dtype(std::string_view name);
const std::vector<std::string>& dtype_names();  // all spellings parse_dtype accepts

}  // namespace polyarch::ir
