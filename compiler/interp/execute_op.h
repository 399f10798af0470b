#pragma once
// One canonical op of a lowered graph executed on its operands' values: picks the kernel and
// reads what the canonical attributes leave out from the imported node it was lowered from.
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/graph.h"

namespace polyarch::interp {

// `operands` are the op's graph inputs in order; `results` its result tensors, whose shapes
// and types (known after shape inference) the values take. Returns one value per result.
std::vector<DenseTensor> execute_op(const ir::Op& op,
                                    const std::vector<const DenseTensor*>& operands,
                                    const std::vector<const ir::Tensor*>& results);

}  // namespace polyarch::interp
