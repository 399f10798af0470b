#pragma once
// Element types of tensors and arithmetic.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyarch::ir {

// Arithmetic types of compute units: int8 ... fp32, and today's inference formats: the OCP 8-bit
// floats (E4M3: 4 exponent and 3 mantissa bits, finite only, largest 448; E5M2: 5 and 2, with
// infinities, largest 57344) and 4-bit integers, two to a byte. The model-only types appear in
// imported models (token ids and shapes are int64, masks bool, quantised zero points uint8,
// some constants fp64). New types go at the end: the order indexes a table in dtype.cpp.
enum class DType {
  kInt8,
  kInt16,
  kInt32,
  kFp16,
  kBf16,
  kFp32,
  kInt64,
  kUint8,
  kBool,
  kFp64,
  kFp8E4M3,
  kFp8E5M2,
  kInt4
};

int64_t dtype_bits(DType dtype);
// Bytes per element of a whole-byte type; int4 has none and throws (an internal error): count
// int4 data with storage_bytes.
int64_t dtype_bytes(DType dtype);
// Bytes `elements` packed elements occupy: ceil(elements x bits / 8).
int64_t storage_bytes(int64_t elements, DType dtype);
bool is_float(DType dtype);
// The 8- and 4-bit formats that units run natively only where their engines say so.
bool is_narrow(DType dtype);
std::string_view dtype_name(DType dtype);  // "int8", "fp16", "fp8_e4m3", ...
// Also takes "fp8", which is fp8_e4m3.
std::optional<DType> parse_dtype(std::string_view name);
// The arithmetic types a config or layer list may name (int8 ... fp32, fp8_e4m3, fp8_e5m2,
// int4). Model-only types (int64, uint8, bool, fp64) are left out so that an arch file cannot
// declare a bool array.
const std::vector<std::string>& dtype_names();
// dtype_names() and the alias "fp8": what a layer list's or builder's `dtype` accepts.
const std::vector<std::string>& dtype_spellings();
const std::vector<std::string>& all_dtype_names();  // every type's name

}  // namespace polyarch::ir
