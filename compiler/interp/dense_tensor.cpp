#include "compiler/interp/dense_tensor.h"

#include "compiler/ir/tensor.h"

namespace polyarch::interp {

DenseTensor filled_tensor(Shape shape, float fill) {
  DenseTensor tensor;
  const int64_t count = ir::element_count(shape);
  tensor.shape = std::move(shape);
  tensor.values.assign(static_cast<std::size_t>(count), fill);
  return tensor;
}

std::vector<int64_t> row_major_strides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

int64_t extent(const Shape& shape, std::size_t from, std::size_t to) {
  int64_t count = 1;
  for (std::size_t i = from; i < to; ++i) count *= shape[i];
  return count;
}

}  // namespace polyarch::interp
