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

// Product of shape[from, to): the elements of the axes between, e.g. the rows before an axis
// (0, axis) or the run of elements after it (axis + 1, rank).
int64_t extent(const Shape& shape, std::size_t from, std::size_t to);

// Calls visit(first, length, stride) once for each 1-D lane of `shape` along `axis`: a lane's
// elements sit at flat offsets first, first + stride, ..., length of them (softmax, cumulative
// sums, arg reductions).
template <typename Visit>
void for_each_lane(const Shape& shape, int64_t axis, Visit visit) {
  const auto axis_index = static_cast<std::size_t>(axis);
  const int64_t outer = extent(shape, 0, axis_index);
  const int64_t length = shape[axis_index];
  const int64_t inner = extent(shape, axis_index + 1, shape.size());
  for (int64_t block = 0; block < outer; ++block) {
    for (int64_t lane = 0; lane < inner; ++lane)
      visit(block * length * inner + lane, length, inner);
  }
}

// A graph tensor's values by name: inputs fed to the interpreter and the outputs it returns.
struct NamedTensor {
  std::string name;
  DenseTensor tensor;
};

}  // namespace polyarch::interp
