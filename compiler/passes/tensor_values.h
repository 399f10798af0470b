#pragma once
// Contents of constant tensors as numbers, for constant folding: integers and booleans as
// int64, floating-point types as double, decoded from and encoded to the raw little-endian
// bytes ir::Tensor holds.
#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/tensor.h"

namespace polyarch::passes {

bool is_float_dtype(ir::DType dtype);

struct Values {
  ir::DType dtype = ir::DType::kInt64;
  std::vector<int64_t> shape;  // empty for a scalar
  std::vector<int64_t> ints;   // integer and bool elements
  std::vector<double> reals;   // fp32/fp64 elements

  bool is_float() const { return is_float_dtype(dtype); }
  int64_t size() const;
  double real(std::size_t i) const { return is_float() ? reals[i] : static_cast<double>(ints[i]); }
  // A float element as an integer truncates toward zero, saturating at the int64 range (NaN
  // gives 0): casting -inf or 1e300 is undefined behaviour (found by UBSan on BERT's mask
  // constants, -inf or float min through Cast/Where folds).
  int64_t integer(std::size_t i) const;
  // Appends element i of `source` converted to this value's element type.
  void push_from(const Values& source, std::size_t i);
};

// An empty value of `dtype` and `shape`, ready for push_from.
Values empty_values(ir::DType dtype, std::vector<int64_t> shape);

// nullopt for a tensor without contents, or of a type folding does not compute in (fp16, bf16).
std::optional<Values> read_values(const ir::Tensor& tensor);

// Writes the values into `tensor`'s data, shape and dtype (name and role stay).
void store_values(const Values& values, ir::Tensor& tensor);

}  // namespace polyarch::passes
