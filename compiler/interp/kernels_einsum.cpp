#include <cstddef>

#include "compiler/interp/kernels_products.h"

namespace polyarch::interp {

DenseTensor einsum(const std::vector<const DenseTensor*>& operands,
                   const passes::EinsumEquation& equation) {
  // Every label gets a slot in one index; an operand's flat offset sums its labels' strides.
  std::string labels = equation.result + equation.summed();
  std::vector<int64_t> extents;
  for (char label : labels) extents.push_back(equation.extents.at(label));
  std::vector<std::vector<int64_t>> strides(operands.size(),
                                            std::vector<int64_t>(labels.size(), 0));
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const std::vector<int64_t> axis_strides = row_major_strides(operands[i]->shape);
    for (std::size_t axis = 0; axis < equation.operands[i].size(); ++axis) {
      strides[i][labels.find(equation.operands[i][axis])] += axis_strides[axis];
    }
  }
  DenseTensor result = filled_tensor(equation.result_shape());
  std::vector<double> sums(result.values.size(), 0.0);
  int64_t summed_count = 1;
  for (std::size_t slot = equation.result.size(); slot < labels.size(); ++slot) {
    summed_count *= extents[slot];
  }
  std::vector<int64_t> index(labels.size(), 0);
  const int64_t total = static_cast<int64_t>(sums.size()) * summed_count;
  for (int64_t step = 0; step < total; ++step) {
    double product = 1.0;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      int64_t offset = 0;
      for (std::size_t slot = 0; slot < labels.size(); ++slot) {
        offset += index[slot] * strides[i][slot];
      }
      product *= operands[i]->values[static_cast<std::size_t>(offset)];
    }
    sums[static_cast<std::size_t>(step / summed_count)] += product;
    for (std::size_t slot = labels.size(); slot-- > 0;) {
      if (++index[slot] < extents[slot]) break;
      index[slot] = 0;
    }
  }
  for (std::size_t i = 0; i < sums.size(); ++i) result.values[i] = static_cast<float>(sums[i]);
  return result;
}

}  // namespace polyarch::interp
