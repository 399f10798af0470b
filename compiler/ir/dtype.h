#pragma once
// Element types of tensors and arithmetic.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyarch::ir {

// The first six are arithmetic types of compute units; the rest appear in imported models
// (token ids and shapes are int64, masks bool, quantised zero points uint8, some constants fp64).
// New types go at the end: the order indexes a table in dtype.cpp, and compute types come
// first (dtype_names() lists those up to kFp32).
enum class DType { kInt8, kInt16, kInt32, kFp16, kBf16, kFp32, kInt64, kUint8, kBool, kFp64 };

int64_t dtype_bytes(DType dtype);
std::string_view dtype_name(DType dtype);  // "int8", "fp16", ...
std::optional<DType> parse_dtype(std::string_view name);
// The arithmetic types a config or layer list may name (int8 ... fp32). Model-only types
// (int64, uint8, bool, fp64) are left out so that an arch file cannot declare a bool array.
const std::vector<std::string>& dtype_names();
const std::vector<std::string>& all_dtype_names();  // every spelling parse_dtype accepts

}  // namespace polyarch::ir
