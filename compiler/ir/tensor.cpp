#include "compiler/ir/tensor.h"

#include "base/checked_math.h"

namespace polyarch::ir {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count = checked_mul(count, dim, "tensor element count");
  return count;
}

}  // namespace polyarch::ir
