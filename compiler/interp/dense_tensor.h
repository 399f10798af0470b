#pragma once
// The reference interpreter's tensor: a shape and its elements as fp32, row-major. Integer
// and boolean tensors (token ids, masks, shapes) are carried as exact floats; the models the
// interpreter runs index tables far smaller than 2^24, where every integer is exact in fp32.
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/dtype.h"

namespace polyarch::interp {

using Shape = std::vector<int64_t>;

struct DenseTensor {
  Shape shape;  // empty for a scalar
  std::vector<float> values;
  // The element type the values stand for: integer results are exact integers in `values`.
  // Frontend ops read it (shape chains in int64); kernels of canonical ops leave it fp32 and the
  // interpreter sets it from the result tensor.
  ir::DType dtype = ir::DType::kFp32;

  int64_t size() const { return static_cast<int64_t>(values.size()); }
};

// A tensor of `shape` filled with `fill`.
DenseTensor filled_tensor(Shape shape, float fill = 0.0f);

// Row-major strides of a shape, in elements.
std::vector<int64_t> row_major_strides(const Shape& shape);

// A graph tensor's values by name: inputs fed to the interpreter and the outputs it returns.
struct NamedTensor {
  std::string name;
  DenseTensor tensor;
};

}  // namespace polyarch::interp
