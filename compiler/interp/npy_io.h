#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0; see numpy.lib.format): C-order,
// little-endian float32, float64, int64, int32, int8, uint8 and bool arrays are read into fp32
// tensors; tensors are written as float32 version 1.0. Errors are bad input naming the file.
#include <filesystem>
#include <string>
#include <string_view>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/dtype.h"

namespace polyarch::interp {

struct NpyArray {
  DenseTensor tensor;
  ir::DType dtype = ir::DType::kFp32;  // the element type the file stored
};

NpyArray read_npy(const std::filesystem::path& path);
// The same from bytes in memory; `source` names them in errors (the fuzzer's entry point).
NpyArray parse_npy(std::string_view bytes, const std::string& source);

void write_npy(const std::filesystem::path& path, const DenseTensor& tensor);
// The bytes write_npy writes.
std::string npy_bytes(const DenseTensor& tensor);

}  // namespace polyarch::interp
