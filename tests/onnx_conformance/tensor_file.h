#pragma once
// ONNX's serialized TensorProto files (the backend tests' input_N.pb and output_N.pb) read
// without polyarch's importer, so the harness does not depend on the code it tests: the
// element type, the dimensions and the elements, as .npy bytes to feed the program and as
// numbers to compare its results with.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace polyarch::onnx_conformance {

struct StoredTensor {
  std::string name;
  int32_t element_type = 0;  // onnx::TensorProto::DataType
  std::vector<int64_t> dims;
  // Every element, little-endian, `element_bytes` each (not for strings).
  std::string bytes;
  std::vector<std::string> strings;  // STRING tensors only

  int64_t element_count() const;
  bool is_real() const;  // FLOAT, DOUBLE, FLOAT16, BFLOAT16
  bool is_string() const;
  bool is_complex() const;
  // Element i as a number: reals converted exactly to double (fp16 and bf16 widened).
  double real(int64_t i) const;
  // Element i of an integer or bool tensor, exactly (uint64 above INT64_MAX wraps).
  int64_t integer(int64_t i) const;
};

// Bytes per element of a numeric element type; 0 for STRING and unknown codes.
int64_t element_bytes(int32_t element_type);

// Parses a TensorProto file; anything else (a SequenceProto, garbage) throws std::runtime_error
// naming the file.
StoredTensor read_tensor_file(const std::filesystem::path& path);

// The tensor as a .npy file (format 1.0, C order) in its own element type. NumPy has no
// bfloat16: those elements are written as the float32 values they stand for, exactly.
std::string npy_bytes(const StoredTensor& tensor);

}  // namespace polyarch::onnx_conformance
